import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { AccountType } from '../../../contract/enums';
import { server as serverMessages, ui } from '../../../contract/messages';
import { accountApi, signOutReachedLogin } from '../../authProvider/api';
import { ModalNotice } from '../../components/ModalNotice';
import { errorMessage, statusOf } from '../../dataProvider/errors';
import { publicPaths } from '../routes';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import type { PendingLogin } from './TwoFactorDialog';

/** The code step (react-admin's useLogin) loads once the password is accepted. */
const TwoFactorStep = lazy(() => import('./TwoFactorStep').then((module) => ({ default: module.TwoFactorStep })));

/** 'staff' is /admin/login: it refuses customer accounts. */
export type LoginVariant = 'customer' | 'staff';

/** Email and password, then the 2FA modal, then the landing page of the account type (spec 4). */
export function LoginForm({ variant }: { variant: LoginVariant }) {
  const translate = useTranslate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [inactive, setInactive] = useState(false);
  // A log-out ends here: from now on a back-office URL without a session redirects to a login page.
  useEffect(signOutReachedLogin, []);
  const [forgotOpen, setForgotOpen] = useState(false);
  const [pending, setPending] = useState<PendingLogin>();
  // Shown once the server says the account is at its hourly cap for new devices and mailed a code.
  const [deviceCodeAsked, setDeviceCodeAsked] = useState(false);
  const [deviceCode, setDeviceCode] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    if (!email.trim() || !password) return setError(ui.form.fillRequired);
    setBusy(true);
    try {
      // The server refuses a customer at the staff door before any code is mailed (portal 'staff').
      const result = await accountApi.login({ email: email.trim(), password, portal: variant, ...(deviceCode.trim() ? { deviceCode: deviceCode.trim() } : {}) });
      if (variant === 'staff' && result.accountType === AccountType.Customer) return setError(ui.access.adminsOnly);
      setPending({ accountId: result.accountId, email: result.email });
    } catch (failure) {
      if (statusOf(failure) === 403 && errorMessage(failure, '') !== ui.access.adminsOnly) setInactive(true);
      else setError(errorMessage(failure, ui.fallback.loginFailed));
      if (statusOf(failure) === 429 && errorMessage(failure, '') === serverMessages.signInCapped) setDeviceCodeAsked(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {translate(variant === 'staff' ? 'app.auth.staffLoginTitle' : 'app.auth.loginTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {translate('app.auth.loginSubtitle')}
      </Typography>
      <Stack component="form" spacing={2} noValidate onSubmit={(event) => void submit(event)}>
        <TextField label={translate('app.auth.email')} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} fullWidth />
        <TextField
          label={translate('app.auth.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          fullWidth
        />
        {deviceCodeAsked && (
          <TextField label={translate('app.auth.deviceCode')} autoComplete="one-time-code" value={deviceCode} onChange={(e) => setDeviceCode(e.target.value)} fullWidth />
        )}
        <Box sx={{ textAlign: 'right' }}>
          <Link component="button" type="button" variant="body2" onClick={() => setForgotOpen(true)}>
            {translate('app.auth.forgotPassword')}
          </Link>
        </Box>
        {error ? <Alert severity="error">{error}</Alert> : null}
        <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
          {translate('app.auth.submit')}
        </Button>
        {variant === 'customer' && (
          // Staff accounts are created by admins: the staff sign-in offers no registration.
          <Typography variant="body2" sx={{ textAlign: 'center' }}>
            {translate('app.auth.noAccount')}{' '}
            <Link component={RouterLink} to={publicPaths.register}>
              {translate('app.auth.register')}
            </Link>
          </Typography>
        )}
      </Stack>
      {pending && (
        <Suspense fallback={null}>
          <TwoFactorStep pending={pending} onCancel={() => setPending(undefined)} />
        </Suspense>
      )}
      <ForgotPasswordDialog open={forgotOpen} onClose={() => setForgotOpen(false)} variant={variant} />
      <ModalNotice
        open={inactive}
        onClose={() => setInactive(false)}
        type="error"
        title={translate('app.auth.inactiveTitle')}
        message={translate('app.ui.access.inactive')}
      />
    </Paper>
  );
}
