import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslate } from 'react-admin';
import { TakeProfitMode, takeProfitModeLabels } from '../../../contract/enums';
import { AmountTypeToggle } from './AmountTypeToggle';
import { useStrategyForm } from './StrategyFormContext';
import { StrategyTextInput } from './StrategyTextInput';
import { validation } from '../../../contract/messages';
import { disabledInputs, tp3Volume, tpVolumesTooHigh } from './strategyFormRules';

/** Take-profit type, Full / Partial mode and the three target levels with their volumes. */
export function StrategyTakeProfitSection() {
  const { values, errors, change, readOnly, locked } = useStrategyForm();
  const translate = useTranslate();
  const field = (key: string, n: number) => translate(`resources.strategies.fields.${key}`, { n });
  const off = disabledInputs(values);
  const volumeError = errors.tpVolumes ?? (tpVolumesTooHigh(values) ? validation.enterCorrectValues : undefined);
  return (
    <Stack spacing={2}>
      <AmountTypeToggle field="takeProfitType" label={translate('resources.strategies.fields.takeProfitType')} />
      <FormControl>
        <ToggleButtonGroup
          exclusive
          size="small"
          color="primary"
          aria-label={translate('resources.strategies.fields.takeProfitMode')}
          value={values.takeProfitMode}
          disabled={readOnly || locked}
          onChange={(_, value: TakeProfitMode | null) => {
            if (value !== null) change({ field: 'takeProfitMode', value });
          }}
        >
          {Object.values(TakeProfitMode).map((mode) => (
            <ToggleButton key={mode} value={mode}>
              {takeProfitModeLabels[mode]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </FormControl>
      {/* One row per level (target, then volume), so no label is cut (issue 10). */}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <StrategyTextInput field="tp1Target" label={field('tpTarget', 1)} numeric />
        <StrategyTextInput field="tp1Volume" label={field('tpVolume', 1)} numeric disabled={off.tp1Volume} onValue={(value) => change({ field: 'tp1Volume', value })} />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <StrategyTextInput field="tp2Target" label={field('tpTarget', 2)} numeric disabled={off.tp2Target} />
        <StrategyTextInput field="tp2Volume" label={field('tpVolume', 2)} numeric disabled={off.tp2Volume} onValue={(value) => change({ field: 'tp2Volume', value })} />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <StrategyTextInput field="tp3Target" label={field('tpTarget', 3)} numeric disabled={off.tp3Target} />
        <TextField size="small" fullWidth label={field('tpVolume', 3)} value={String(values.takeProfitMode === TakeProfitMode.Full ? 0 : tp3Volume(values))} disabled />
      </Stack>
      {volumeError !== undefined && <FormHelperText error>{translate(volumeError, { _: volumeError })}</FormHelperText>}
    </Stack>
  );
}
