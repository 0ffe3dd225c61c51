import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { PauseSwitchCard } from '../../components/switches/PauseSwitchCard';
import { MonthlyIncomeReport } from './MonthlyIncomeReport';
import { StaffTotalsCards } from './StaffTotalsCards';

/** Admin and employee dashboard, 'Performance Overview', with the platform's kill switch. */
export function StaffDashboard() {
  const translate = useTranslate();
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        {translate('app.dashboards.performanceOverview')}
      </Typography>
      <PauseSwitchCard target={{ scope: 'platform' }} />
      <StaffTotalsCards />
      <MonthlyIncomeReport />
    </Stack>
  );
}
