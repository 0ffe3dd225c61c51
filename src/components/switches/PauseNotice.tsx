import Alert from '@mui/material/Alert';
import { useTranslate } from 'react-admin';
import type { PauseState } from '../../../contract/api/switches';
import { formatDate, formatTime } from '../formatDate';

/**
 * Why a customer's copying is paused and how it ends (issue 29): a loss guard's reason and its resume, or,
 * for the customer's own dashboard, that staff paused it. Nothing while copying runs.
 */
export function PauseNotice({ state, audience }: { state: PauseState | undefined; audience: 'staff' | 'customer' }) {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`app.switches.guard.${key}`, options);
  if (!state?.paused || (!state.reason && audience === 'staff')) return null;
  const how = state.resumeAt ? t('until', { at: `${formatDate(state.resumeAt)} ${formatTime(state.resumeAt)}` }) : t('staff');
  const why = state.reason ?? t('byStaff');
  return (
    <Alert severity="warning" data-testid="pause-notice" sx={{ mb: 2 }}>
      {audience === 'customer' ? `${t('customerTitle')} ${why}. ${t('protected')} ${how}` : `${why}. ${how}`}
    </Alert>
  );
}
