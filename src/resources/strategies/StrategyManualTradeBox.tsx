import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { errorMessage, useAppDataProvider } from '../../dataProvider';

type Side = 'long' | 'short';

/** Admins' Open Long / Open Short for every subscribed customer; disabled until the strategy is saved. */
export function StrategyManualTradeBox({ strategyId }: { strategyId: string | undefined }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const [asking, setAsking] = useState<Side | undefined>(undefined);
  const place = useMutation({
    mutationFn: ({ id, side }: { id: string; side: Side }) => (side === 'long' ? dataProvider.openLong(id) : dataProvider.openShort(id)),
    onSuccess: (_, { side }) => showResult({ type: 'success', message: t(`notifications.${side}Placed`) }),
    onError: (error) => showResult({ type: 'error', message: errorMessage(error, t('notifications.orderFailed')) }),
    onSettled: () => setAsking(undefined),
  });
  return (
    <Stack direction="row" spacing={2}>
      <Button variant="contained" color="success" disabled={!strategyId || place.isPending} onClick={() => setAsking('long')}>
        {t('actions.openLong')}
      </Button>
      <Button variant="contained" color="error" disabled={!strategyId || place.isPending} onClick={() => setAsking('short')}>
        {t('actions.openShort')}
      </Button>
      <ConfirmDialog
        open={asking !== undefined}
        busy={place.isPending}
        title={t(`actions.${asking === 'short' ? 'openShort' : 'openLong'}`)}
        content={t(`confirm.${asking ?? 'long'}`)}
        onCancel={() => setAsking(undefined)}
        onConfirm={() => asking && strategyId && place.mutate({ id: strategyId, side: asking })}
      />
    </Stack>
  );
}
