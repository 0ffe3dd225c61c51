import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { ui, validation } from '../../../contract/messages';
import { accountApi } from '../../authProvider/api';
import { CodeInput } from '../../components/CodeInput';
import { errorMessage } from '../../dataProvider/errors';
import { publicPaths } from '../routes';

/** `accountId` is the opaque value of the forgot-password answer, sent back with the code. */
type Step = { name: 'customer' } | { name: 'email' } | { name: 'reset'; accountId: string; email: string } | { name: 'done' };

interface ForgotPasswordDialogProps {
  open: boolean;
  onClose: () => void;
  /** 'customer' starts with the notice that customers ask their agent (the /auth/login variant). */
  variant: 'customer' | 'staff';
}

/** Forgot password: email, then the emailed code with a new password, then 'Password Updated !'. */
export function ForgotPasswordDialog({ open, onClose, variant }: ForgotPasswordDialogProps) {
  const translate = useTranslate();
  const first: Step = variant === 'customer' ? { name: 'customer' } : { name: 'email' };
  const [step, setStep] = useState<Step>(first);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password1, setPassword1] = useState('');
  const [password2, setPassword2] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const close = () => {
    setStep(first);
    setEmail('');
    setCode('');
    setPassword1('');
    setPassword2('');
    setError(undefined);
    onClose();
  };

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(errorMessage(failure, ui.form.resetRequestError));
    } finally {
      setBusy(false);
    }
  };

  const sendCode = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return setError(validation.enterEmail);
    void run(async () => {
      const answer = await accountApi.forgotPassword({ email: email.trim() });
      setStep({ name: 'reset', accountId: answer.accountId, email: answer.email });
    });
  };

  const reset = (event: FormEvent) => {
    event.preventDefault();
    if (step.name !== 'reset') return;
    if (!code.trim() || !password1 || !password2) return setError(validation.allFieldsRequired);
    if (password1 !== password2) return setError(validation.passwordsDidntMatch);
    void run(async () => {
      await accountApi.verifyPassword({ accountId: step.accountId, code: code.trim(), password: password1 });
      setStep({ name: 'done' });
    });
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : close} maxWidth="xs" fullWidth aria-labelledby="forgot-title">
      <DialogTitle id="forgot-title">
        {translate(step.name === 'customer' ? 'app.forgot.customerTitle' : 'app.forgot.title')}
      </DialogTitle>
      {step.name === 'customer' ? (
        <DialogContent>
          <Typography sx={{ mb: 2 }}>{translate('app.forgot.customerIntro')}</Typography>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {translate('app.forgot.customerNoAccount')}{' '}
            <Link component={RouterLink} to={publicPaths.register} onClick={close}>
              {translate('app.auth.register')}
            </Link>
          </Typography>
          <Link component="button" type="button" variant="body2" onClick={() => setStep({ name: 'email' })}>
            {translate('app.forgot.staffLink')}
          </Link>
        </DialogContent>
      ) : null}
      {step.name === 'email' ? (
        <DialogContent>
          <Stack component="form" id="forgot-email-form" spacing={2} noValidate onSubmit={sendCode}>
            <Typography variant="body2">{translate('app.forgot.emailIntro')}</Typography>
            <TextField label={translate('app.auth.email')} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus fullWidth />
          </Stack>
        </DialogContent>
      ) : null}
      {step.name === 'reset' ? (
        <DialogContent>
          <Stack component="form" id="forgot-reset-form" spacing={2} noValidate onSubmit={reset}>
            <Typography variant="body2">{translate('app.forgot.codeIntro', { email: step.email })}</Typography>
            {/* The same six boxes as the sign-in code (issue 28): one code input everywhere. */}
            <Box role="group" aria-label={translate('app.forgot.code')}>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {translate('app.forgot.code')}
              </Typography>
              <CodeInput onChange={setCode} onComplete={setCode} disabled={busy} />
            </Box>
            <TextField label={translate('app.forgot.newPassword')} type="password" value={password1} onChange={(e) => setPassword1(e.target.value)} fullWidth />
            <TextField label={translate('app.forgot.confirmPassword')} type="password" value={password2} onChange={(e) => setPassword2(e.target.value)} fullWidth />
          </Stack>
        </DialogContent>
      ) : null}
      {step.name === 'done' ? (
        <DialogContent>
          <Alert severity="success">{ui.accountsSuccess.passwordUpdated}</Alert>
        </DialogContent>
      ) : null}
      {error ? (
        <Alert severity="error" sx={{ mx: 3, mb: 1 }}>
          {error}
        </Alert>
      ) : null}
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {translate('app.forgot.close')}
        </Button>
        {step.name === 'email' ? (
          <Button type="submit" form="forgot-email-form" variant="contained" disabled={busy}>
            {translate('app.forgot.sendCode')}
          </Button>
        ) : null}
        {step.name === 'reset' ? (
          <Button type="submit" form="forgot-reset-form" variant="contained" disabled={busy || !password1 || !password2}>
            {translate('app.forgot.submit')}
          </Button>
        ) : null}
      </DialogActions>
    </Dialog>
  );
}
