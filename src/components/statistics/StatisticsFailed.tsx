import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';

/** Where counts or statistics cards would be when their call failed: 'Failed to get statistics' (spec 8). */
export function StatisticsFailed() {
  const translate = useTranslate();
  return (
    <Typography variant="body2" color="error" role="status">
      {translate('app.ui.other.statisticsFailed')}
    </Typography>
  );
}
