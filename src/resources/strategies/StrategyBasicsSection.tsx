import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslate } from 'react-admin';
import { EntryDirection, PositionMode, entryDirectionLabels, positionModeLabels } from '../../../contract/enums';
import { useStrategyForm } from './StrategyFormContext';
import { StrategyTextInput } from './StrategyTextInput';

/** Symbol, strategy ID, entry direction, leverage and position mode. */
export function StrategyBasicsSection() {
  const { values, errors, change, readOnly, locked } = useStrategyForm();
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  const disabled = readOnly || locked;
  return (
    <Stack spacing={2}>
      <StrategyTextInput field="symbol" label={t('fields.symbolToken')} placeholder={t('placeholders.symbol')} />
      <StrategyTextInput field="id" label={t('fields.id')} placeholder={t('placeholders.id')} />
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        aria-label={t('fields.entryDirection')}
        value={values.entryDirection}
        disabled={disabled}
        onChange={(_, value: EntryDirection | null) => {
          if (value !== null) change({ field: 'other', patch: { entryDirection: value } });
        }}
      >
        {Object.values(EntryDirection).map((direction) => (
          <ToggleButton key={direction} value={direction}>
            {entryDirectionLabels[direction]}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <StrategyTextInput field="leverage" label={t('fields.leverage')} placeholder={t('placeholders.leverage')} numeric />
      <FormControl size="small" error={errors.positionMode !== undefined} disabled={disabled}>
        <InputLabel id="strategy-positionMode-label">{t('fields.positionMode')}</InputLabel>
        <Select
          labelId="strategy-positionMode-label"
          id="strategy-positionMode"
          label={t('fields.positionMode')}
          value={values.positionMode}
          onChange={(event) => change({ field: 'other', patch: { positionMode: Number(event.target.value) } })}
        >
          {Object.values(PositionMode).map((mode) => (
            <MenuItem key={mode} value={mode}>
              {positionModeLabels[mode]}
            </MenuItem>
          ))}
        </Select>
        {errors.positionMode !== undefined && <FormHelperText>{translate(errors.positionMode, { _: errors.positionMode })}</FormHelperText>}
      </FormControl>
    </Stack>
  );
}
