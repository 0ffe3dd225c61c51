import Stack from '@mui/material/Stack';
import { useTranslate } from 'react-admin';
import { UsdtAmount } from '../../components/UsdtAmount';
import { StatCard } from '../../components/profile/StatCard';
import { StatisticsFailed } from '../../components/statistics/StatisticsFailed';
import { useStatistics } from '../../components/statistics/useStatistics';
import { useAppDataProvider } from '../../dataProvider';

/** Total wallet amount (USDT), total customers and total agents. */
export function StaffTotalsCards() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { data, isError, isPending } = useStatistics(['dashboard', 'staff'], () => dataProvider.getStaffDashboard());
  const t = (key: string) => translate(`app.dashboards.${key}`);
  if (isError) return <StatisticsFailed />;
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      <StatCard label={t('totalWallet')} loading={isPending} value={<UsdtAmount value={data?.totalWalletAmount} />} />
      <StatCard label={t('totalCustomers')} loading={isPending} value={data?.totalCustomers} />
      <StatCard label={t('totalAgents')} loading={isPending} value={data?.totalAgents} />
    </Stack>
  );
}
