import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { employeeRoutes } from '../../../contract/api/employee';
import { UsdtAmount } from '../../components/UsdtAmount';
import type { AppDataProvider } from '../../dataProvider';
import { StatCard } from '../../resources/common/StatCard';

/** Total wallet amount (USDT), total customers and total agents. */
export function StaffTotalsCards() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data } = useQuery({ queryKey: ['dashboard', 'staff'], queryFn: () => dataProvider.call(employeeRoutes.dashboard) });
  const t = (key: string) => translate(`app.dashboards.${key}`);
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      <StatCard label={t('totalWallet')} value={<UsdtAmount value={data?.totalWalletAmount} />} />
      <StatCard label={t('totalCustomers')} value={data?.totalCustomers ?? 0} />
      <StatCard label={t('totalAgents')} value={data?.totalAgents ?? 0} />
    </Stack>
  );
}
