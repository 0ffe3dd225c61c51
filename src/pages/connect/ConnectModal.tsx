import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { ExchangeLogo } from './ExchangeLogo';
import type { ExchangeEntry } from './exchanges';

interface ConnectModalProps {
  exchange: ExchangeEntry | undefined;
  open: boolean;
  busy: boolean;
  error?: string;
  onNext: () => void;
  onClose: () => void;
}

/** The 'Connect Exchange' confirmation: the exchange logo, the data-access text, the Quick API note. */
export function ConnectModal({ exchange, open, busy, error, onNext, onClose }: ConnectModalProps) {
  const translate = useTranslate();
  if (!exchange) return null;
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="connect-modal-title">
      <DialogTitle id="connect-modal-title">{translate('app.connect.modalTitle', { exchange: exchange.name })}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', justifyContent: 'center', mb: 2 }}>
          <ExchangeLogo exchange={exchange.id} size={64} title={translate('app.connect.logoAlt', { exchange: exchange.name })} />
        </Box>
        <Typography sx={{ mb: 2, textAlign: 'center' }}>{translate('app.connect.authorise')}</Typography>
        <Box sx={{ p: 2, borderRadius: 1, bgcolor: 'action.hover' }}>
          <Typography sx={{ fontWeight: 700 }}>{translate('app.connect.quickApi')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('app.connect.quickApiNote')}
          </Typography>
        </Box>
        {error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate('app.connect.cancel')}
        </Button>
        <Button variant="contained" onClick={onNext} disabled={busy}>
          {translate('app.connect.next')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
