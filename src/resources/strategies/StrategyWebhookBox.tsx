import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import Snackbar from '@mui/material/Snackbar';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { WebhookRotateButton } from './WebhookRotateButton';

/** How long 'Copy success!' stays (spec 8: one second). */
export const COPY_NOTICE_MS = 1000;

/**
 * The strategy's webhook URL with copy and Rotate buttons (admins; the server sends the URL to admins
 * only), that a webhook exists (everyone else), or the notice that it needs saving first.
 */
export function StrategyWebhookBox({ strategyId, webhookUrl: savedUrl, hasWebhook }: { strategyId?: string | undefined; webhookUrl: string | undefined; hasWebhook: boolean }) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  // The URL a rotation answered; the strategy record (and the form built on it) stays as it is.
  const [rotatedUrl, setRotatedUrl] = useState<string | undefined>(undefined);
  const webhookUrl = rotatedUrl ?? savedUrl;
  if (!webhookUrl && hasWebhook) {
    return <Alert severity="info">{translate('resources.strategies.notifications.webhookAdminsOnly')}</Alert>;
  }
  if (!webhookUrl) {
    return <Alert severity="info">{translate('resources.strategies.notifications.saveBeforeWebhook')}</Alert>;
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(webhookUrl);
      setCopied(true);
    } catch {
      // No clipboard (e.g. a plain-http address): the URL stays selectable in the box.
    }
  };
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <TextField
        size="small"
        fullWidth
        label={translate('resources.strategies.fields.webhookUrl')}
        value={webhookUrl}
        slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'webhook-url' } }}
      />
      <IconButton aria-label={translate('resources.strategies.actions.copy')} onClick={() => void copy()}>
        <ContentCopy />
      </IconButton>
      {strategyId && <WebhookRotateButton strategyId={strategyId} onRotated={setRotatedUrl} />}
      <Snackbar
        open={copied}
        autoHideDuration={COPY_NOTICE_MS}
        onClose={() => setCopied(false)}
        message={translate('resources.strategies.notifications.copySuccess')}
      />
    </Stack>
  );
}
