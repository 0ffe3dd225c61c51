import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useListFilterContext } from 'ra-core';

export interface FilterChoice {
  value: string;
  label: string;
}

/**
 * One dropdown filter of a list, on react-admin's list filters (`source` is the spec's query
 * parameter); the first option (value '') means "all". A change goes back to page 1.
 */
export function SelectFilter(props: { source: string; label: string; allLabel: string; choices: readonly FilterChoice[]; disabled?: boolean }) {
  const { filterValues, setFilters } = useListFilterContext();
  const raw: unknown = filterValues[props.source];
  const value = raw === undefined || raw === null ? '' : String(raw);
  // A value from the URL stays selectable while its choices load.
  const known = value === '' || props.choices.some((choice) => choice.value === value);
  const choices = known ? props.choices : [...props.choices, { value, label: value }];
  return (
    <TextField
      select
      size="small"
      label={props.label}
      value={value}
      disabled={props.disabled}
      onChange={(event) => setFilters({ ...filterValues, [props.source]: event.target.value }, undefined, false)}
      sx={{ minWidth: 150 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{props.allLabel}</MenuItem>
      {choices.map((choice) => (
        <MenuItem key={choice.value} value={choice.value}>
          {choice.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
