import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { strategyRoutes } from '../../../contract/api/strategy';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { Result } from '../../components/ResultPopup';
import { errorMessage, type AppDataProvider } from '../../dataProvider';

type Side = 'long' | 'short';

/** Admins' Open Long / Open Short for every subscribed customer; disabled until the strategy is saved. */
export function StrategyManualTradeBox({ strategyId, onResult }: { strategyId: string | undefined; onResult: (result: Result) => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [asking, setAsking] = useState<Side | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const place = async (side: Side) => {
    if (!strategyId) return;
    setBusy(true);
    try {
      await dataProvider.call(side === 'long' ? strategyRoutes.openLong : strategyRoutes.openShort, { params: { id: strategyId } });
      onResult({ type: 'success', message: translate(`resources.strategies.notifications.${side}Placed`) });
    } catch (error) {
      onResult({ type: 'error', message: errorMessage(error, translate('resources.strategies.notifications.orderFailed')) });
    } finally {
      setBusy(false);
      setAsking(undefined);
    }
  };
  return (
    <Stack direction="row" spacing={2}>
      <Button variant="contained" color="success" disabled={!strategyId || busy} onClick={() => setAsking('long')}>
        {translate('resources.strategies.actions.openLong')}
      </Button>
      <Button variant="contained" color="error" disabled={!strategyId || busy} onClick={() => setAsking('short')}>
        {translate('resources.strategies.actions.openShort')}
      </Button>
      <ConfirmDialog
        open={asking !== undefined}
        busy={busy}
        title={translate(`resources.strategies.actions.${asking === 'short' ? 'openShort' : 'openLong'}`)}
        content={translate(`resources.strategies.confirm.${asking ?? 'long'}`)}
        onCancel={() => setAsking(undefined)}
        onConfirm={() => asking && void place(asking)}
      />
    </Stack>
  );
}
