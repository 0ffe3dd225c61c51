import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useMutation } from '@tanstack/react-query';
import { useCanAccess, useRefresh, useTranslate } from 'react-admin';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { errorMessage, useAppDataProvider } from '../../dataProvider';

/** Creates a single-use Registration ID: for the agent shown (admins) or for oneself (agents). */
export function RegistrationIdCreator({ agentId }: { agentId?: number }) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'registrationIds', action: agentId === undefined ? 'create' : 'createForAgent' });
  const create = useMutation({
    mutationFn: () => dataProvider.createRegistrationId(agentId),
    onSuccess: () => {
      showResult({ type: 'success', message: translate('app.ui.registrationId.created') });
      refresh();
    },
    onError: (error) => showResult({ type: 'error', message: translate('app.components.errorWithMessage', { message: errorMessage(error) }) }),
  });
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
      <Button variant="contained" disabled={canAccess !== true || create.isPending} onClick={() => create.mutate()}>
        {translate('resources.agents.actions.createRegistrationId')}
      </Button>
      {create.data && (
        <Alert severity="success" data-testid="registration-id-code">
          {create.data.code}
        </Alert>
      )}
    </Stack>
  );
}
