import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { StatusChip } from '../../components/StatusChip';
import { OwnPasswordButton } from '../../components/profile/OwnPasswordButton';
import { ReadOnlyFields } from '../../components/profile/ReadOnlyFields';
import { useAppDataProvider } from '../../dataProvider';
import { agentFields } from './agentFields';

/** The signed-in agent's own profile (GET /api/agent): read-only fields (spec 6) and the own password pencil. */
export function AgentOwnProfile() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.agents.${key}`);
  const dataProvider = useAppDataProvider();
  const { data: agent, isPending } = useQuery({ queryKey: ['agents', 'own'], queryFn: () => dataProvider.getOwnAgent() });
  if (isPending) return <LinearProgress />;
  if (!agent) return null;
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 2 }}>
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            {t('sections.ownProfile')}
          </Typography>
          <StatusChip status={agent.account.status} />
          <OwnPasswordButton />
        </Stack>
        <ReadOnlyFields fields={agentFields(agent).map((field) => ({ label: t(`fields.${field.key}`), value: field.value }))} />
      </CardContent>
    </Card>
  );
}
