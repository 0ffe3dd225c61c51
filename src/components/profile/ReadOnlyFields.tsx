import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';

/**
 * A read-only profile form: label and value pairs in a two-column grid. They look read-only (a
 * grey panel, no outline, no text cursor) so that nobody takes them for inputs (issue 28).
 */
export function ReadOnlyFields({ fields }: { fields: { label: string; value: ReactNode }[] }) {
  return (
    <Grid container spacing={2}>
      {fields.map((field) => (
        <Grid key={field.label} size={{ xs: 12, sm: 6 }}>
          <TextField
            size="small"
            fullWidth
            variant="filled"
            label={field.label}
            value={field.value ?? ''}
            slotProps={{
              input: { disableUnderline: true, sx: { bgcolor: 'action.hover', borderRadius: 1, cursor: 'default', '&:hover, &.Mui-focused': { bgcolor: 'action.hover' } } },
              htmlInput: { readOnly: true, 'aria-readonly': true, tabIndex: -1, style: { cursor: 'default' } },
            }}
          />
        </Grid>
      ))}
    </Grid>
  );
}
