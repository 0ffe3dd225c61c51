import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'ra-core';
import { PAGE_SIZE_OPTIONS } from '../../contract/constants';

/** Rows per page: 10, 25, 50 or 100 (spec 9). */
export function PageSizeSelector({ value, onChange }: { value: number; onChange: (size: number) => void }) {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      label={translate('app.components.rowsPerPage')}
      value={value}
      onChange={(event) => onChange(Number(event.target.value))}
      sx={{ minWidth: 120 }}
    >
      {PAGE_SIZE_OPTIONS.map((size) => (
        <MenuItem key={size} value={size}>
          {size}
        </MenuItem>
      ))}
    </TextField>
  );
}
