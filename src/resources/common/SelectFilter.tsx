import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

export interface SelectOption {
  value: string;
  label: string;
}

/** One dropdown filter of a list; the first option (value '') means "all". */
export function SelectFilter(props: { label: string; allLabel: string; value: string | undefined; options: SelectOption[]; onChange: (value: string) => void; disabled?: boolean }) {
  // A value from the URL stays selectable while its options load.
  const known = !props.value || props.options.some((option) => option.value === props.value);
  const options = known ? props.options : [...props.options, { value: props.value!, label: props.value! }];
  return (
    <TextField
      select
      size="small"
      label={props.label}
      value={props.value ?? ''}
      disabled={props.disabled}
      onChange={(event) => props.onChange(event.target.value)}
      sx={{ minWidth: 150 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{props.allLabel}</MenuItem>
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
