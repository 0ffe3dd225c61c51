import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { accountRoutes } from '../../../contract/api/account';
import type { Result } from '../../components/ResultPopup';
import { errorMessage, type AppDataProvider } from '../../dataProvider';

/** 'All fields are required' and 'Passwords don’t match!' (spec 5, reset password dialog). */
export function passwordDialogError(password1: string, password2: string): 'allFieldsRequired' | 'passwordsDontMatch' | undefined {
  if (password1 === '' || password2 === '') return 'allFieldsRequired';
  if (password1 !== password2) return 'passwordsDontMatch';
  return undefined;
}

/** Sets another account's password (POST /api/security/password/reset/{accountId}). */
export function PasswordResetDialog({ accountId, open, onClose, onResult }: { accountId: number; open: boolean; onClose: () => void; onResult: (result: Result) => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [password1, setPassword1] = useState('');
  const [password2, setPassword2] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setPassword1('');
    setPassword2('');
    setError(undefined);
    onClose();
  };
  const submit = async () => {
    const problem = passwordDialogError(password1, password2);
    if (problem) {
      setError(translate(`app.validation.${problem}`));
      return;
    }
    setBusy(true);
    try {
      await dataProvider.call(accountRoutes.resetPasswordOf, { params: { id: accountId }, body: { password: password1 } });
      onResult({ type: 'success', message: translate('app.ui.accountsSuccess.passwordReset') });
      close();
    } catch (failure) {
      setError(errorMessage(failure, translate('app.ui.accountsFailure.passwordChange')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="password-title">
      <DialogTitle id="password-title">{translate('app.lists.password.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField type="password" size="small" label={translate('app.lists.password.password1')} value={password1} onChange={(e) => setPassword1(e.target.value)} />
          <TextField type="password" size="small" label={translate('app.lists.password.password2')} value={password2} onChange={(e) => setPassword2(e.target.value)} />
          {error && <FormHelperText error>{error}</FormHelperText>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('app.components.cancel')}</Button>
        <Button variant="contained" disabled={busy} onClick={() => void submit()}>
          {translate('app.lists.password.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
