import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ShowBase, useCanAccess, useShowContext, useTranslate } from 'react-admin';
import type { Agent } from '../../../contract/api/agent';
import { StatusChip } from '../../components/StatusChip';
import { PageTitle } from '../../components/profile/PageTitle';
import { PasswordResetDialog } from '../../components/profile/PasswordResetDialog';
import { PersonActions } from '../../components/profile/PersonActions';
import { ReadOnlyFields } from '../../components/profile/ReadOnlyFields';
import { useAccountActions } from '../../components/profile/useAccountActions';
import { linkTo } from '../../pages/routes';
import { AgentEarningsCards } from './AgentEarningsCards';
import { AgentDeleteDialog } from './AgentDeleteDialog';
import { agentFields } from './agentFields';
import { AgentStatusControl } from './AgentStatusControl';
import { RegistrationIdCreator } from './RegistrationIdCreator';

function AgentProfile({ agent }: { agent: Agent }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.agents.${key}`);
  const { canAccess: canForAgent } = useCanAccess({ resource: 'registrationIds', action: 'createForAgent' });
  const accountActions = useAccountActions('agents', agent, linkTo('agents'));
  const { password } = accountActions;
  const [moving, setMoving] = useState(false);
  // An agent with customers is deleted only with them moved to another agent (issue 28).
  const actions = accountActions.actions.map((action) =>
    action.name === 'delete' && agent.totalCustomers > 0 ? { ...action, confirm: undefined, open: () => setMoving(true) } : action,
  );
  const { account } = agent;
  const fields = agentFields(agent).map((field) => ({ label: t(`fields.${field.key}`), value: field.value }));
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle title={t('title.profile')} home={linkTo('agents')} actions={<StatusChip status={account.status} />} />
      <AgentEarningsCards agentId={agent.id} customersLabel={t('fields.totalCustomers')} />
      <Card variant="outlined">
        <CardContent>
          <ReadOnlyFields fields={fields} />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
            <AgentStatusControl agent={agent} />
            <PersonActions actions={actions} />
          </Stack>
        </CardContent>
      </Card>
      {canForAgent === true && (
        <Card variant="outlined">
          <CardContent>
            <Typography variant="subtitle1" gutterBottom>
              {t('sections.admin')}
            </Typography>
            <RegistrationIdCreator agentId={agent.id} />
          </CardContent>
        </Card>
      )}
      <PasswordResetDialog {...password} />
      <AgentDeleteDialog agent={agent} open={moving} onClose={() => setMoving(false)} />
    </Stack>
  );
}

function AgentProfileView() {
  const { record, isPending } = useShowContext<Agent>();
  if (isPending) return <LinearProgress />;
  return record ? <AgentProfile agent={record} /> : null;
}

/** Agent profile (/agent/{id}): statistics, read-only fields, status control, actions, and (admins) the Registration ID creator. */
export function AgentShow() {
  return (
    <ShowBase resource="agents">
      <AgentProfileView />
    </ShowBase>
  );
}
