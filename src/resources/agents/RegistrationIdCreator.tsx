import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { registrationIdRoutes } from '../../../contract/api/registrationId';
import type { Result } from '../../components/ResultPopup';
import { errorMessage, type AppDataProvider } from '../../dataProvider';

/** Creates a single-use Registration ID: for the agent shown (admins) or for oneself (agents). */
export function RegistrationIdCreator({ agentId, allowed, onResult }: { agentId: number | undefined; allowed: boolean; onResult: (result: Result) => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [code, setCode] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const create = async () => {
    setBusy(true);
    try {
      const created = agentId === undefined ? await dataProvider.call(registrationIdRoutes.createOwn) : await dataProvider.call(registrationIdRoutes.createForAgent, { params: { agentId }, body: { agentId } });
      setCode(created.code);
      onResult({ type: 'success', message: translate('app.ui.registrationId.created') });
    } catch (error) {
      onResult({ type: 'error', message: translate('app.components.errorWithMessage', { message: errorMessage(error) }) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
      <Button variant="contained" disabled={!allowed || busy} onClick={() => void create()}>
        {translate('resources.agents.actions.createRegistrationId')}
      </Button>
      {code && (
        <Alert severity="success" data-testid="registration-id-code">
          {code}
        </Alert>
      )}
    </Stack>
  );
}
