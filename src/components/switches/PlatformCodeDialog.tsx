import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { errorMessage, useAppDataProvider } from '../../dataProvider';
import { CodeInput } from '../CodeInput';

interface PlatformCodeDialogProps<T> {
  open: boolean;
  title: string;
  /** Sends the switch with the typed code (pause, resume or close all of the platform). */
  confirm: (code: string) => Promise<T>;
  onCancel: () => void;
  onDone: (answer: T) => void;
}

/** A platform-wide switch: a code is mailed as the dialog opens; the sixth digit confirms. */
export function PlatformCodeDialog<T>({ open, title, confirm: send, onCancel, onDone }: PlatformCodeDialogProps<T>) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!open) return;
    setError(undefined);
    dataProvider.requestPlatformPauseCode().catch((failure: unknown) => setError(errorMessage(failure, translate('app.switches.notifications.failed'))));
  }, [open, dataProvider, translate]);

  const confirm = async (code: string) => {
    setBusy(true);
    setError(undefined);
    try {
      onDone(await send(code));
    } catch (failure) {
      setError(errorMessage(failure, translate('app.switches.notifications.failed')));
      setAttempt((n) => n + 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} maxWidth="xs" fullWidth aria-labelledby="platform-code-title">
      <DialogTitle id="platform-code-title">{title}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {translate('app.switches.confirm.codeSent')}
        </Typography>
        <CodeInput key={attempt} onComplete={(code) => void confirm(code)} disabled={busy} />
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={busy}>
          {translate('app.components.cancel')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
