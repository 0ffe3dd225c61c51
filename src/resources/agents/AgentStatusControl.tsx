import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { agentRoutes, type Agent } from '../../../contract/api/agent';
import { AccountStatus, type Gender } from '../../../contract/enums';
import type { Result } from '../../components/ResultPopup';
import { errorMessage, type AppDataProvider } from '../../dataProvider';

const CHOICES = [AccountStatus.Active, AccountStatus.Blocked] as const;

/** The agent's status (Active or Suspended), saved with PUT /api/agent; disabled for employees. */
export function AgentStatusControl({ agent, allowed, onResult, onChanged }: { agent: Agent; allowed: boolean; onResult: (result: Result) => void; onChanged: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [busy, setBusy] = useState(false);
  const { account } = agent;
  const change = async (status: (typeof CHOICES)[number]) => {
    setBusy(true);
    try {
      await dataProvider.call(agentRoutes.update, {
        body: {
          agentID: agent.id,
          firstName: account.firstName,
          lastName: account.lastName,
          email: account.email,
          age: account.age ?? 0,
          phone: account.phone ?? '',
          countryId: account.country?.id ?? 0,
          gender: (account.gender ?? 1) as Gender,
          status,
        },
      });
      onResult({ type: 'success', message: translate('resources.agents.notifications.updated') });
      onChanged();
    } catch (error) {
      onResult({ type: 'error', message: errorMessage(error, translate('resources.agents.notifications.updateFailed')) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <TextField
      select
      size="small"
      sx={{ minWidth: 180 }}
      label={translate('resources.agents.fields.statusControl')}
      value={CHOICES.includes(account.status as (typeof CHOICES)[number]) ? account.status : ''}
      disabled={!allowed || busy}
      onChange={(e) => void change(Number(e.target.value) as (typeof CHOICES)[number])}
    >
      {CHOICES.map((status) => (
        <MenuItem key={status} value={status}>
          {translate(`resources.agents.statuses.${status}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
