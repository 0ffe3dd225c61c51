import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'ra-core';
import { ui } from '../../../contract/messages';
import { accountApi } from '../../authProvider/api';
import { errorMessage, statusOf } from '../../dataProvider/errors';

/** Step 1: the Registration ID, trimmed and verified by the server. */
export function RegistrationIdStep({ onVerified }: { onVerified: (registrationId: string) => void }) {
  const translate = useTranslate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const registrationId = value.trim();
    setError(undefined);
    if (!registrationId) return setError(ui.registrationId.enter);
    setBusy(true);
    try {
      const result = await accountApi.verifyRegistrationId({ registrationId });
      onVerified(result.registrationId);
    } catch (failure) {
      // A refusal from the server (404 included) is a verify result: show its message.
      setError(statusOf(failure) > 0 ? errorMessage(failure, ui.registrationId.submitError) : ui.registrationId.submitError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack component="form" spacing={2} noValidate onSubmit={(event) => void submit(event)}>
      <TextField
        label={translate('app.register.registrationIdLabel')}
        helperText={translate('app.register.registrationIdHelp')}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        autoFocus
        fullWidth
      />
      {error ? <Alert severity="error">{error}</Alert> : null}
      <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
        {translate('app.register.verify')}
      </Button>
    </Stack>
  );
}
