import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { AgentEarningsCards } from '../../resources/agents/AgentEarningsCards';
import { AgentOwnProfile } from '../../resources/agents/AgentOwnProfile';

/** The agent's dashboard: totalCustomers, prevMonthAmountEarned and totalAmountEarned, then the agent's own profile (spec 6). */
export function AgentDashboard() {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.dashboards.${key}`);
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        {t('performanceOverview')}
      </Typography>
      <AgentEarningsCards customersLabel={t('totalCustomers')} />
      <AgentOwnProfile />
    </Stack>
  );
}
