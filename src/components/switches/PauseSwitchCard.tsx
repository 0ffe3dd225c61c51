import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import type { PauseState } from '../../../contract/api/switches';
import { errorMessage, useAppDataProvider } from '../../dataProvider';
import { ConfirmDialog } from '../ConfirmDialog';
import { formatDate, formatTime } from '../formatDate';
import { useResultPopup } from '../ResultPopupProvider';
import { CloseAllControl } from './CloseAllControl';
import { PauseNotice } from './PauseNotice';
import { PlatformCodeDialog } from './PlatformCodeDialog';
import { queryKeyOf, resourceOf, type SwitchTarget } from './target';

function usePauseState(target: SwitchTarget) {
  const dataProvider = useAppDataProvider();
  const key = queryKeyOf('pauseSwitch', target);
  const state = useQuery({
    queryKey: key,
    queryFn: (): Promise<PauseState> =>
      target.scope === 'strategy' ? dataProvider.strategyPause(target.id) : target.scope === 'customer' ? dataProvider.customerPause(target.id) : dataProvider.platformPause(),
  });
  return { state, key };
}

function StateChip({ state }: { state: PauseState | undefined }) {
  const translate = useTranslate();
  if (!state) return null;
  const label = state.paused
    ? state.pausedAt
      ? translate('app.switches.state.pausedSince', { at: `${formatDate(state.pausedAt)} ${formatTime(state.pausedAt)}` })
      : translate('app.switches.state.paused')
    : translate('app.switches.state.running');
  return <Chip size="small" variant="outlined" color={state.paused ? 'error' : 'success'} data-color={state.paused ? 'error' : 'success'} label={label} />;
}

/**
 * A kill switch's card: its state for every staff member, and (admins only; shown disabled to the
 * others, never hidden) Pause / Resume and Close all, asked for confirmation; the platform's with the
 * mailed code.
 */
export function PauseSwitchCard({ target }: { target: SwitchTarget }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.switches.${key}`);
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const queryClient = useQueryClient();
  const { canAccess } = useCanAccess({ resource: resourceOf[target.scope], action: 'pause' });
  const { state, key } = usePauseState(target);
  const [asking, setAsking] = useState(false);
  const paused = state.data?.paused ?? false;
  const done = (next: PauseState) => {
    queryClient.setQueryData(key, next);
    setAsking(false);
    showResult({ type: 'success', message: t(next.paused ? 'notifications.paused' : 'notifications.resumed') });
  };
  const change = useMutation({
    mutationFn: () => (target.scope === 'strategy' ? dataProvider.setStrategyPause(target.id, !paused) : dataProvider.setCustomerPause((target as { id: number }).id, !paused)),
    onSuccess: done,
    onError: (error) => showResult({ type: 'error', message: errorMessage(error, t('notifications.failed')) }),
  });
  const action = `${paused ? 'resume' : 'pause'}.${target.scope}`;
  return (
    <Card variant="outlined" data-testid={`pause-switch-${target.scope}`}>
      <CardContent>
        <Stack direction="row" alignItems="center" spacing={2} sx={{ mb: 1 }}>
          <Typography variant="subtitle1" sx={{ flexGrow: 1 }}>
            {t(`title.${target.scope}`)}
          </Typography>
          <StateChip state={state.data} />
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t(`explain.${target.scope}`)}
        </Typography>
        <PauseNotice state={state.data} audience="staff" />
        <Button variant="contained" color={paused ? 'success' : 'error'} disabled={canAccess !== true || !state.data || change.isPending} onClick={() => setAsking(true)}>
          {t(`actions.${action}`)}
        </Button>
        <CloseAllControl target={target} />
      </CardContent>
      {target.scope === 'platform' ? (
        <PlatformCodeDialog
          open={asking}
          title={t(`actions.${action}`)}
          confirm={(code) => dataProvider.setPlatformPause(!paused, code)}
          onCancel={() => setAsking(false)}
          onDone={done}
        />
      ) : (
        <ConfirmDialog open={asking} busy={change.isPending} title={t(`actions.${action}`)} content={t(`confirm.${action}`)} onCancel={() => setAsking(false)} onConfirm={() => change.mutate()} />
      )}
    </Card>
  );
}
