import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useLogin, useTranslate } from 'ra-core';
import { ui } from '../../../contract/messages';
import { accountApi } from '../../authProvider/api';
import { CodeInput } from '../../components/CodeInput';
import { errorMessage } from '../../dataProvider/errors';

export interface PendingLogin {
  accountId: number;
  email: string;
}

interface TwoFactorDialogProps {
  pending: PendingLogin | undefined;
  onCancel: () => void;
}

/**
 * The 2FA modal: six boxes, verified automatically at the sixth digit; a new code on demand. The
 * code finishes the sign-in through react-admin's `useLogin` (authProvider.login stores the
 * session and answers the landing page of the account type).
 */
export function TwoFactorDialog({ pending, onCancel }: TwoFactorDialogProps) {
  const translate = useTranslate();
  const login = useLogin();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [info, setInfo] = useState<string>();
  const [attempt, setAttempt] = useState(0);

  const verify = async (code: string) => {
    if (!pending) return;
    setBusy(true);
    setError(undefined);
    setInfo(undefined);
    try {
      await login({ accountId: pending.accountId, code });
    } catch (failure) {
      setError(errorMessage(failure, ui.fallback.verificationFailed));
      setAttempt((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    if (!pending) return;
    setError(undefined);
    setInfo(undefined);
    try {
      await accountApi.resendCode({ accountId: pending.accountId, email: pending.email });
      setInfo(translate('app.twoFactor.resent'));
    } catch (failure) {
      setError(errorMessage(failure, ui.fallback.failedToSendCode));
    }
  };

  return (
    <Dialog open={Boolean(pending)} onClose={busy ? undefined : onCancel} maxWidth="xs" fullWidth aria-labelledby="two-factor-title">
      <DialogTitle id="two-factor-title">{translate('app.twoFactor.title')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('app.twoFactor.sentTo', { email: pending?.email ?? '' })}
        </Typography>
        <CodeInput key={attempt} onComplete={(code) => void verify(code)} disabled={busy} />
        {busy ? <CircularProgress size={24} sx={{ display: 'block', mx: 'auto', mt: 2 }} /> : null}
        {error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
        {info ? (
          <Alert severity="info" sx={{ mt: 2 }}>
            {info}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ justifyContent: 'space-between', px: 3, pb: 2 }}>
        <Button onClick={() => void resend()} disabled={busy}>
          {translate('app.twoFactor.resend')}
        </Button>
        <Button onClick={onCancel} disabled={busy}>
          {translate('app.twoFactor.cancel')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
