import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDelete, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { Agent } from '../../../contract/api/agent';
import { AccountStatus } from '../../../contract/enums';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { errorMessage, useAppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';

/** The active agents the customers can move to: every one but the agent deleted. */
function useOtherActiveAgents(agentId: number) {
  const dataProvider = useAppDataProvider();
  const { data } = useQuery({ queryKey: ['agents', 'choices'], queryFn: () => dataProvider.getAgentChoices() });
  return (data?.data ?? []).filter((agent) => agent.id !== agentId && agent.account.status === AccountStatus.Active);
}

/**
 * Deleting an agent who still has customers (issue 28): says how many, and moves them to the agent
 * chosen here in the same step (DELETE /api/agent/{id}?moveCustomersTo=...), so none is left without one.
 */
export function AgentDeleteDialog({ agent, open, onClose }: { agent: Agent; open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`resources.agents.move.${key}`, options);
  const showResult = useResultPopup();
  const navigate = useNavigate();
  const others = useOtherActiveAgents(agent.id);
  const [target, setTarget] = useState<number | ''>('');
  const [deleteOne, { isPending }] = useDelete<Agent>();
  const remove = () =>
    deleteOne(
      'agents',
      { id: agent.id, previousData: agent, meta: { moveCustomersTo: target } },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          onClose();
          showResult({ type: 'success', message: translate('resources.agents.notifications.deleted') }, { onClose: () => navigate(linkTo('agents')) });
        },
        onError: (error) => showResult({ type: 'error', message: errorMessage(error, translate('resources.agents.notifications.deleteFailed')) }),
      },
    );
  return (
    <Dialog open={open} onClose={isPending ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="agent-delete-title">
      <DialogTitle id="agent-delete-title">{translate('resources.agents.confirm.delete')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('content', { smart_count: agent.totalCustomers })}</DialogContentText>
        <TextField select fullWidth size="small" label={t('to')} value={target} onChange={(event) => setTarget(Number(event.target.value))}>
          {others.map((other) => (
            <MenuItem key={other.id} value={other.id}>
              {`${other.account.firstName} ${other.account.lastName}`}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isPending}>
          {translate('app.components.cancel')}
        </Button>
        <Button variant="contained" color="error" disabled={isPending || target === ''} onClick={remove}>
          {t('submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
