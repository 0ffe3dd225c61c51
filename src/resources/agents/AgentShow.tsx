import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useDelete, useGetOne, useTranslate } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { agentRoutes, type Agent } from '../../../contract/api/agent';
import { genderLabels, type Gender } from '../../../contract/enums';
import { ResultPopup, type Result } from '../../components/ResultPopup';
import { UsdtAmount } from '../../components/UsdtAmount';
import type { AppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';
import { AccountActionsMenu } from '../common/AccountActionsMenu';
import { PageTitle } from '../common/PageTitle';
import { ReadOnlyFields } from '../common/ReadOnlyFields';
import { StatCard } from '../common/StatCard';
import { StatusChip } from '../common/StatusChip';
import { useCan } from '../common/useCan';
import { AgentStatusControl } from './AgentStatusControl';
import { RegistrationIdCreator } from './RegistrationIdCreator';

function Profile({ agent, refetch }: { agent: Agent; refetch: () => void }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.agents.${key}`);
  const navigate = useNavigate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [result, setResult] = useState<Result | undefined>(undefined);
  const [deleted, setDeleted] = useState(false);
  const [deleteOne] = useDelete<Agent>();
  const canStatus = useCan('agents', 'status');
  const canForAgent = useCan('registrationIds', 'createForAgent');
  const allowed = { block: canStatus, delete: useCan('agents', 'delete'), password: useCan('agents', 'password') };
  const stats = useQuery({ queryKey: ['agents', 'dashboard', agent.id], queryFn: () => dataProvider.call(agentRoutes.dashboardOf, { params: { agentId: agent.id } }) });
  const { account } = agent;
  const fields = [
    { label: t('fields.agentId'), value: String(agent.id) },
    { label: t('fields.firstName'), value: account.firstName },
    { label: t('fields.lastName'), value: account.lastName },
    { label: t('fields.email'), value: account.email },
    { label: t('fields.age'), value: account.age === null ? '' : String(account.age) },
    { label: t('fields.phone'), value: account.phone ?? '' },
    { label: t('fields.country'), value: account.country?.name ?? '' },
    { label: t('fields.gender'), value: account.gender ? (genderLabels[account.gender as Gender] ?? '') : '' },
  ];
  const remove = async () => {
    await deleteOne('agents', { id: agent.id, previousData: agent }, { returnPromise: true });
    setDeleted(true);
    setResult({ type: 'success', message: t('notifications.deleted') });
  };
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle title={t('title.profile')} home={linkTo('agents')} actions={<StatusChip status={account.status} label={t(`statuses.${account.status}`)} />} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <StatCard label={t('fields.totalCustomers')} value={stats.data?.totalCustomers ?? agent.totalCustomers} />
        <StatCard label={t('fields.prevMonthAmountEarned')} value={<UsdtAmount value={stats.data?.prevMonthAmountEarned} />} />
        <StatCard label={t('fields.totalAmountEarned')} value={<UsdtAmount value={stats.data?.totalAmountEarned} />} />
      </Stack>
      <Card variant="outlined">
        <CardContent>
          <ReadOnlyFields fields={fields} />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
            <AgentStatusControl agent={agent} allowed={canStatus} onResult={setResult} onChanged={refetch} />
            <AccountActionsMenu
              accountId={account.id}
              status={account.status}
              allowed={allowed}
              texts={{ confirm: { block: t('confirm.block'), unblock: t('confirm.unblock'), delete: t('confirm.delete') }, blocked: t('notifications.blocked'), unblocked: t('notifications.unblocked') }}
              onResult={setResult}
              onChanged={refetch}
              onDelete={remove}
            />
          </Stack>
        </CardContent>
      </Card>
      {canForAgent && (
        <Card variant="outlined">
          <CardContent>
            <Typography variant="subtitle1" gutterBottom>
              {t('sections.admin')}
            </Typography>
            <RegistrationIdCreator agentId={agent.id} allowed={canForAgent} onResult={setResult} />
          </CardContent>
        </Card>
      )}
      <ResultPopup
        result={result}
        onClose={() => {
          setResult(undefined);
          if (deleted) navigate(linkTo('agents'));
        }}
      />
    </Stack>
  );
}

/** Agent profile: statistics, read-only fields, status control, actions, and (admins) the Registration ID creator. */
export function AgentShow() {
  const { agentId } = useParams();
  const { data, isPending, refetch } = useGetOne<Agent>('agents', { id: Number(agentId) });
  if (isPending) return <LinearProgress />;
  return data ? <Profile agent={data} refetch={() => void refetch()} /> : null;
}
