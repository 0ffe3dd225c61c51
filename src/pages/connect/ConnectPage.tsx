import { useState } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { ui } from '../../../contract/messages';
import { accountApi } from '../../authProvider/api';
import { errorMessage } from '../../dataProvider/errors';
import { PublicLayout } from '../public/PublicLayout';
import { TEMP_ACCOUNT_PARAM } from '../register/RegisterPage';
import { publicPaths } from '../routes';
import { ConnectModal } from './ConnectModal';
import { ConnectPanels } from './ConnectPanels';
import { ExchangeDropdown } from './ExchangeDropdown';
import type { ExchangeEntry } from './exchanges';

/** /auth/connect: pick an exchange, confirm, and go to the exchange's authorisation page. */
export function ConnectPage() {
  const translate = useTranslate();
  const [search] = useSearchParams();
  const tempAccountId = search.get(TEMP_ACCOUNT_PARAM);
  const [exchange, setExchange] = useState<ExchangeEntry>();
  const [modalOpen, setModalOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  if (!tempAccountId) return <Navigate to={publicPaths.register} replace />;

  const next = async () => {
    if (!exchange) return;
    setBusy(true);
    setError(undefined);
    try {
      const { url } = await accountApi.exchangeAuthorizeUrl(exchange.slug, tempAccountId);
      window.location.assign(url);
    } catch (failure) {
      setError(errorMessage(failure, ui.fallback.somethingWentWrong));
      setBusy(false);
    }
  };

  return (
    <PublicLayout wide>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '3fr 2fr' }, gap: 2 }}>
        <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
          <Stepper activeStep={1} sx={{ mb: 3 }}>
            <Step completed>
              <StepLabel>{translate('app.connect.stepConnect')}</StepLabel>
            </Step>
            <Step>
              <StepLabel aria-label={translate('app.connect.stepNext')} />
            </Step>
          </Stepper>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 3 }}>
            {translate('app.connect.title')}
          </Typography>
          <ExchangeDropdown value={exchange} onChange={setExchange} />
          <Button variant="contained" size="large" fullWidth sx={{ mt: 3 }} disabled={!exchange} onClick={() => setModalOpen(true)}>
            {translate('app.connect.connectButton')}
          </Button>
          <Typography variant="caption" component="p" color="text.secondary" sx={{ mt: 3 }}>
            {translate('app.connect.footnote')}
          </Typography>
        </Paper>
        <ConnectPanels />
      </Box>
      <ConnectModal exchange={exchange} open={modalOpen} busy={busy} error={error} onNext={() => void next()} onClose={() => setModalOpen(false)} />
    </PublicLayout>
  );
}
