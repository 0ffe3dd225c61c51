import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useCanAccess, useTranslate, useUpdate } from 'react-admin';
import type { Agent } from '../../../contract/api/agent';
import { AccountStatus, accountStatusLabels } from '../../../contract/enums';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { errorMessage } from '../../dataProvider';

const CHOICES = [AccountStatus.Active, AccountStatus.Blocked] as const;

/** The agent's status (Active or Blocked), saved with PUT /api/agent; disabled for employees. */
export function AgentStatusControl({ agent }: { agent: Agent }) {
  const translate = useTranslate();
  const showResult = useResultPopup();
  const { canAccess } = useCanAccess({ resource: 'agents', action: 'status' });
  const [update, { isPending }] = useUpdate<Agent>();
  const { account } = agent;
  const change = (status: (typeof CHOICES)[number]) =>
    update(
      'agents',
      { id: agent.id, data: { account: { ...account, status } }, previousData: agent },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => showResult({ type: 'success', message: translate('resources.agents.notifications.updated') }),
        onError: (error) => showResult({ type: 'error', message: errorMessage(error, translate('resources.agents.notifications.updateFailed')) }),
      },
    );
  return (
    <TextField
      select
      size="small"
      sx={{ minWidth: 180 }}
      label={translate('resources.agents.fields.statusControl')}
      value={CHOICES.includes(account.status as (typeof CHOICES)[number]) ? account.status : ''}
      disabled={canAccess !== true || isPending}
      onChange={(e) => change(Number(e.target.value) as (typeof CHOICES)[number])}
    >
      {CHOICES.map((status) => (
        <MenuItem key={status} value={status}>
          {accountStatusLabels[status]}
        </MenuItem>
      ))}
    </TextField>
  );
}
