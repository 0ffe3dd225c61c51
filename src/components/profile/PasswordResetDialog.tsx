import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { errorMessage } from '../../dataProvider';
import { useResultPopup } from '../ResultPopupProvider';

/**
 * 'All fields are required' and 'Passwords don’t match!' (spec 5, reset password dialog); `current`
 * is the current password where the dialog asks for it (one's own password), else undefined.
 */
export function passwordDialogError(password1: string, password2: string, current?: string): 'allFieldsRequired' | 'passwordsDontMatch' | undefined {
  if (password1 === '' || password2 === '' || current === '') return 'allFieldsRequired';
  if (password1 !== password2) return 'passwordsDontMatch';
  return undefined;
}

/**
 * Sets a password with `change` (another account's, or one's own); 'Password reset successful!' when
 * done. With `askCurrent` (one's own password) the current password is asked first and handed to `change`.
 */
export function PasswordResetDialog({
  open,
  onClose,
  change,
  askCurrent = false,
}: {
  open: boolean;
  onClose: () => void;
  change: (password: string, current: string) => Promise<unknown>;
  askCurrent?: boolean;
}) {
  const translate = useTranslate();
  const showResult = useResultPopup();
  const [current, setCurrent] = useState('');
  const [password1, setPassword1] = useState('');
  const [password2, setPassword2] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const close = () => {
    setCurrent('');
    setPassword1('');
    setPassword2('');
    setError(undefined);
    onClose();
  };
  const submit = useMutation({
    mutationFn: (password: string) => change(password, current),
    onSuccess: () => {
      close();
      showResult({ type: 'success', message: translate('app.ui.accountsSuccess.passwordReset') });
    },
    onError: (failure) => setError(errorMessage(failure, translate('app.ui.accountsFailure.passwordChange'))),
  });
  const save = () => {
    const problem = passwordDialogError(password1, password2, askCurrent ? current : undefined);
    if (problem) setError(translate(`app.validation.${problem}`));
    else submit.mutate(password1);
  };
  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth aria-labelledby="password-title">
      <DialogTitle id="password-title">{translate('app.lists.password.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {askCurrent && (
            <TextField
              type="password"
              size="small"
              autoComplete="current-password"
              label={translate('app.lists.password.current')}
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          )}
          <TextField type="password" size="small" label={translate('app.lists.password.password1')} value={password1} onChange={(e) => setPassword1(e.target.value)} />
          <TextField type="password" size="small" label={translate('app.lists.password.password2')} value={password2} onChange={(e) => setPassword2(e.target.value)} />
          {error && <FormHelperText error>{error}</FormHelperText>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('app.components.cancel')}</Button>
        <Button variant="contained" disabled={submit.isPending} onClick={save}>
          {translate('app.lists.password.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
