import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useInput, useTranslate } from 'ra-core';

export interface Choice {
  id: number;
  name: string;
}

/**
 * A dropdown bound to a react-admin form field (`useInput`), with its validation message. The
 * choices are few and fixed, so react-admin's SelectInput (search, create, diacritics) is not needed.
 */
export function ChoiceInput({ source, label, choices, disabled }: { source: string; label: string; choices: readonly Choice[]; disabled?: boolean }) {
  const translate = useTranslate();
  const { field, fieldState, isRequired } = useInput({ source });
  const error = fieldState.error?.message;
  const value: unknown = field.value;
  return (
    <TextField
      select
      fullWidth
      size="small"
      label={label}
      required={isRequired}
      disabled={disabled}
      name={field.name}
      inputRef={field.ref}
      value={typeof value === 'number' ? value : ''}
      onChange={(event) => field.onChange(Number(event.target.value))}
      onBlur={field.onBlur}
      error={error !== undefined}
      helperText={error === undefined ? ' ' : translate(error, { _: error })}
    >
      {choices.map((choice) => (
        <MenuItem key={choice.id} value={choice.id}>
          {choice.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
