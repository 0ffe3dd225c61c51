import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { useTranslate } from 'react-admin';
import { POSITION_CLOSE_MAX, POSITION_CLOSE_MIN } from '../../../contract/constants';
import { AmountTypeToggle } from './AmountTypeToggle';
import { FieldError } from './FieldError';
import { useStrategyForm } from './StrategyFormContext';
import { StrategyTextInput } from './StrategyTextInput';
import { disabledInputs } from './strategyFormRules';

/** Spec 9: the position close goes from 0.01 to 10 in steps of 0.01 (the $ close has no upper bound). */
const CLOSE_RANGE = { min: POSITION_CLOSE_MIN, max: POSITION_CLOSE_MAX, step: POSITION_CLOSE_MIN };
const CLOSE_STEP = { min: POSITION_CLOSE_MIN, step: POSITION_CLOSE_MIN };

/** Stop loss (editable after saving), advance stop loss, and the trailing stop with its activation and close. */
export function StrategyStopLossSection() {
  const { values, errors, change, readOnly, locked } = useStrategyForm();
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.fields.${key}`);
  const off = disabledInputs(values);
  return (
    <Stack spacing={2}>
      <AmountTypeToggle field="stopLossType" label={t('stopLossType')} editableWhenLocked />
      <StrategyTextInput field="stopLossAmount" label={t('stopLoss')} numeric editableWhenLocked />
      <FormControlLabel
        label={t('advanceStopLoss')}
        control={
          <Switch
            checked={values.advanceStopLoss}
            disabled={readOnly || locked}
            onChange={(e) => change({ field: 'other', patch: { advanceStopLoss: e.target.checked } })}
          />
        }
      />
      <FormControlLabel
        label={t('trailingStop')}
        control={
          <Switch
            checked={values.trailingStop}
            disabled={readOnly || locked}
            onChange={(e) => change({ field: 'trailingStop', value: e.target.checked })}
          />
        }
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <StrategyTextInput field="activationDollar" label={t('activationDollar')} numeric disabled={off.activationDollar} onValue={(value) => change({ field: 'activationDollar', value })} />
        <StrategyTextInput field="activationPercent" label={t('activationPercent')} numeric disabled={off.activationPercent} onValue={(value) => change({ field: 'activationPercent', value })} />
      </Stack>
      <FieldError message={errors.activation} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <StrategyTextInput field="closeDollar" label={t('closeDollar')} numeric range={CLOSE_STEP} disabled={off.closeDollar} onValue={(value) => change({ field: 'closeDollar', value })} />
        <StrategyTextInput field="closePercent" label={t('closePercent')} numeric range={CLOSE_RANGE} disabled={off.closePercent} onValue={(value) => change({ field: 'closePercent', value })} />
      </Stack>
      <FieldError message={errors.close} />
    </Stack>
  );
}
