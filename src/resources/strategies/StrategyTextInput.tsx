import TextField from '@mui/material/TextField';
import { useTranslate } from 'react-admin';
import { useStrategyForm } from './StrategyFormContext';
import type { StrategyFormValues } from './strategyFormValues';

type TextKey = { [K in keyof StrategyFormValues]: StrategyFormValues[K] extends string ? K : never }[keyof StrategyFormValues];

/** A text box of the settings form bound to one string field, with its error below. */
export function StrategyTextInput(props: {
  field: TextKey;
  label: string;
  placeholder?: string;
  numeric?: boolean;
  disabled?: boolean;
  /** Stays editable once the strategy is saved (groups and stop loss). */
  editableWhenLocked?: boolean;
  /** A number box with these bounds and step (e.g. the position close: 0.01 to 10, step 0.01). */
  range?: { min: number; max?: number; step: number };
  onValue?: (value: string) => void;
}) {
  const { values, errors, change, readOnly, locked } = useStrategyForm();
  const translate = useTranslate();
  const error = errors[props.field];
  const disabled = readOnly || (locked && !props.editableWhenLocked) || props.disabled === true;
  return (
    <TextField
      id={`strategy-${props.field}`}
      label={props.label}
      placeholder={props.placeholder}
      value={values[props.field]}
      disabled={disabled}
      error={error !== undefined}
      helperText={error === undefined ? undefined : translate(error, { _: error })}
      size="small"
      fullWidth
      type={props.range ? 'number' : 'text'}
      slotProps={{ htmlInput: props.range ? { ...props.range, inputMode: 'decimal' } : props.numeric ? { inputMode: 'decimal' } : {} }}
      onChange={(event) => {
        const value = props.numeric ? event.target.value.replace(/[^\d.]/g, '') : event.target.value;
        if (props.onValue) props.onValue(value);
        else change({ field: 'other', patch: { [props.field]: value } });
      }}
    />
  );
}
