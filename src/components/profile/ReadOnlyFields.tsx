import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';

/** A read-only profile form: label and value pairs in a two-column grid. */
export function ReadOnlyFields({ fields }: { fields: { label: string; value: ReactNode }[] }) {
  return (
    <Grid container spacing={2}>
      {fields.map((field) => (
        <Grid key={field.label} size={{ xs: 12, sm: 6 }}>
          <TextField size="small" fullWidth label={field.label} value={field.value ?? ''} slotProps={{ htmlInput: { readOnly: true } }} />
        </Grid>
      ))}
    </Grid>
  );
}
