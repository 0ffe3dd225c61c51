import Stack from '@mui/material/Stack';
import { useTranslate } from 'react-admin';
import { UsdtAmount } from '../../components/UsdtAmount';
import { StatCard } from '../../components/profile/StatCard';
import { StatisticsFailed } from '../../components/statistics/StatisticsFailed';
import { useStatistics } from '../../components/statistics/useStatistics';
import { useAppDataProvider } from '../../dataProvider';

/**
 * totalCustomers, prevMonthAmountEarned and totalAmountEarned of one agent (GET /api/agent/dashboard/statistics/{agentId}),
 * or of the signed-in agent when `agentId` is not given: the agent profile and the agent's dashboard.
 */
export function AgentEarningsCards({ agentId, customersLabel }: { agentId?: number; customersLabel: string }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.dashboards.${key}`);
  const dataProvider = useAppDataProvider();
  const { data, isError, isPending } = useStatistics(['agents', 'dashboard', agentId ?? 'own'], () =>
    agentId === undefined ? dataProvider.getOwnAgentDashboard() : dataProvider.getAgentDashboard(agentId),
  );
  if (isError) return <StatisticsFailed />;
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      <StatCard label={customersLabel} loading={isPending} value={data?.totalCustomers} />
      <StatCard label={t('prevMonthAmountEarned')} loading={isPending} value={<UsdtAmount value={data?.prevMonthAmountEarned} redAtZero={false} />} />
      <StatCard label={t('totalAmountEarned')} loading={isPending} value={<UsdtAmount value={data?.totalAmountEarned} redAtZero={false} />} />
    </Stack>
  );
}
