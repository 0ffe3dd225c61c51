import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { PublicLayout } from '../public/PublicLayout';
import { publicPaths } from '../routes';
import { AccountFormStep } from './AccountFormStep';
import { RegistrationIdStep } from './RegistrationIdStep';

/** The connect page reads the temporary account id from this query parameter. */
export const TEMP_ACCOUNT_PARAM = 'tempAccountId';

/** /auth/register: step 1 Registration ID, step 2 account form, then /auth/connect. */
export function RegisterPage() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [registrationId, setRegistrationId] = useState<string>();
  const step = registrationId ? 1 : 0;
  return (
    <PublicLayout wide={step === 1}>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 2 }}>
          {translate('app.register.title')}
        </Typography>
        <Stepper activeStep={step} sx={{ mb: 3 }}>
          <Step>
            <StepLabel>{translate('app.register.stepRegistrationId')}</StepLabel>
          </Step>
          <Step>
            <StepLabel>{translate('app.register.stepAccount')}</StepLabel>
          </Step>
        </Stepper>
        {registrationId ? (
          <AccountFormStep
            registrationId={registrationId}
            onBack={() => setRegistrationId(undefined)}
            onRegistered={(tempAccountId) => navigate(`${publicPaths.connect}?${TEMP_ACCOUNT_PARAM}=${encodeURIComponent(tempAccountId)}`)}
          />
        ) : (
          <RegistrationIdStep onVerified={setRegistrationId} />
        )}
        <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
          {translate('app.register.haveAccount')}{' '}
          <Link component={RouterLink} to={publicPaths.login}>
            {translate('app.register.signIn')}
          </Link>
          {' · '}
          <Link component={RouterLink} to={publicPaths.terms}>
            {translate('app.register.terms')}
          </Link>
          {' · '}
          <Link component={RouterLink} to={publicPaths.privacy}>
            {translate('app.register.privacy')}
          </Link>
        </Typography>
      </Paper>
    </PublicLayout>
  );
}
