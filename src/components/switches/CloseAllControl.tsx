import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import type { CloseAllProgress, CloseAllState } from '../../../contract/api/switches';
import { errorMessage, useAppDataProvider, type AppDataProvider } from '../../dataProvider';
import { ConfirmDialog } from '../ConfirmDialog';
import { formatDate, formatTime } from '../formatDate';
import { useResultPopup } from '../ResultPopupProvider';
import { PlatformCodeDialog } from './PlatformCodeDialog';
import { queryKeyOf, resourceOf, type SwitchTarget } from './target';

/** While positions of the latest close-all are still closing, its progress is read again this often. */
const PROGRESS_POLL_MS = 2_000;

function readLast(dataProvider: AppDataProvider, target: SwitchTarget): Promise<CloseAllState> {
  if (target.scope === 'strategy') return dataProvider.strategyCloseAll(target.id);
  if (target.scope === 'customer') return dataProvider.customerCloseAll(target.id);
  return dataProvider.platformCloseAll();
}

const underWay = (run: CloseAllProgress | null | undefined) => run !== null && run !== undefined && run.closed < run.positions;

/** "Close all asked 29/11/2026 11:40: 1 of 2 closed, the rest still protected" and its variants. */
function useProgressText() {
  const translate = useTranslate();
  return (run: CloseAllProgress) => {
    const at = translate('app.switches.closeAll.asked', { at: `${formatDate(run.requestedAt)} ${formatTime(run.requestedAt)}` });
    const rest = run.positions - run.closed;
    const figures = { closed: run.closed, positions: run.positions, protected: run.protected, smart_count: run.positions };
    const key = run.positions === 0 ? 'nothing' : rest === 0 ? 'done' : run.protected >= rest ? 'protected' : 'unprotected';
    return `${at} ${translate(`app.switches.closeAll.progress.${key}`, figures)}`;
  };
}

/**
 * Close all of a kill switch's target: every live position at market through the engine's close path,
 * asked for confirmation (the platform's with the mailed code), then its progress until every position
 * is closed. Admins only; shown disabled to the other staff.
 */
export function CloseAllControl({ target }: { target: SwitchTarget }) {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`app.switches.closeAll.${key}`, options);
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const queryClient = useQueryClient();
  const progressText = useProgressText();
  const { canAccess } = useCanAccess({ resource: resourceOf[target.scope], action: 'closeAll' });
  const key = queryKeyOf('closeAll', target);
  const state = useQuery({
    queryKey: key,
    queryFn: () => readLast(dataProvider, target),
    refetchInterval: (query) => (underWay(query.state.data?.last) ? PROGRESS_POLL_MS : false),
  });
  const [asking, setAsking] = useState(false);
  const done = (run: CloseAllProgress) => {
    queryClient.setQueryData<CloseAllState>(key, { last: run });
    setAsking(false);
    showResult({ type: 'success', message: run.positions === 0 ? t('notifications.nothing') : t('notifications.asked', { smart_count: run.positions }) });
  };
  const close = useMutation({
    mutationFn: () => (target.scope === 'strategy' ? dataProvider.closeAllOfStrategy(target.id) : dataProvider.closeAllOfCustomer((target as { id: number }).id)),
    onSuccess: done,
    onError: (error) => showResult({ type: 'error', message: errorMessage(error, t('notifications.failed')) }),
  });
  const last = state.data?.last;
  return (
    <Box sx={{ mt: 2 }}>
      <Button variant="outlined" color="error" disabled={canAccess !== true || close.isPending} onClick={() => setAsking(true)}>
        {t('action')}
      </Button>
      {last && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid={`close-all-progress-${target.scope}`}>
          {progressText(last)}
        </Typography>
      )}
      {target.scope === 'platform' ? (
        <PlatformCodeDialog open={asking} title={t('action')} confirm={(code) => dataProvider.closeAllOfPlatform(code)} onCancel={() => setAsking(false)} onDone={done} />
      ) : (
        <ConfirmDialog open={asking} busy={close.isPending} title={t('action')} content={t(`confirm.${target.scope}`)} onCancel={() => setAsking(false)} onConfirm={() => close.mutate()} />
      )}
    </Box>
  );
}
