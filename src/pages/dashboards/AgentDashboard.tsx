import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { UsdtAmount } from '../../components/UsdtAmount';
import { useAppDataProvider } from '../../dataProvider';
import { StatCard } from '../../components/profile/StatCard';
import { AgentOwnProfile } from '../../resources/agents/AgentOwnProfile';

/** The agent's dashboard: totalCustomers, prevMonthAmountEarned and totalAmountEarned, then the agent's own profile (spec 6). */
export function AgentDashboard() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { data } = useQuery({ queryKey: ['dashboard', 'agent'], queryFn: () => dataProvider.getOwnAgentDashboard() });
  const t = (key: string) => translate(`app.dashboards.${key}`);
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        {t('performanceOverview')}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <StatCard label={t('totalCustomers')} value={data?.totalCustomers ?? 0} />
        <StatCard label={t('prevMonthAmountEarned')} value={<UsdtAmount value={data?.prevMonthAmountEarned} />} />
        <StatCard label={t('totalAmountEarned')} value={<UsdtAmount value={data?.totalAmountEarned} />} />
      </Stack>
      <AgentOwnProfile />
    </Stack>
  );
}
