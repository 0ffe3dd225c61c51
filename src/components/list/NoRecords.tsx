import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';

/** The empty state of every list: 'No records available' (spec 2). */
export function NoRecords() {
  const translate = useTranslate();
  return (
    <Typography align="center" color="text.secondary" sx={{ py: 3 }}>
      {translate('app.ui.other.noRecords')}
    </Typography>
  );
}
