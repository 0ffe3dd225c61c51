import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { AmountType, amountTypeLabels } from '../../../contract/enums';
import { useStrategyForm } from './StrategyFormContext';

/** $ or % for take profit and stop loss (the spec offers only these two there). */
export function AmountTypeToggle(props: { field: 'takeProfitType' | 'stopLossType'; label: string; editableWhenLocked?: boolean }) {
  const { values, change, readOnly, locked } = useStrategyForm();
  return (
    <Stack direction="row" spacing={2} alignItems="center">
      <Typography variant="body2">{props.label}</Typography>
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        aria-label={props.label}
        value={values[props.field]}
        disabled={readOnly || (locked && !props.editableWhenLocked)}
        onChange={(_, value: AmountType | null) => {
          if (value !== null) change({ field: 'other', patch: { [props.field]: value } });
        }}
      >
        {[AmountType.Dollar, AmountType.Percent].map((type) => (
          <ToggleButton key={type} value={type}>
            {amountTypeLabels[type]}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    </Stack>
  );
}
