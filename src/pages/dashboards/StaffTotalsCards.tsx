import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { UsdtAmount } from '../../components/UsdtAmount';
import { useAppDataProvider } from '../../dataProvider';
import { StatCard } from '../../components/profile/StatCard';

/** Total wallet amount (USDT), total customers and total agents. */
export function StaffTotalsCards() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { data } = useQuery({ queryKey: ['dashboard', 'staff'], queryFn: () => dataProvider.getStaffDashboard() });
  const t = (key: string) => translate(`app.dashboards.${key}`);
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      <StatCard label={t('totalWallet')} value={<UsdtAmount value={data?.totalWalletAmount} />} />
      <StatCard label={t('totalCustomers')} value={data?.totalCustomers ?? 0} />
      <StatCard label={t('totalAgents')} value={data?.totalAgents ?? 0} />
    </Stack>
  );
}
