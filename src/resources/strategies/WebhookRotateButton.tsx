import Button from '@mui/material/Button';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { errorMessage, useAppDataProvider } from '../../dataProvider';

/**
 * Admins: replaces the strategy's webhook token after confirming (POST /api/strategy/{id}/webhook/rotate,
 * audited); the old URL stops at once and `onRotated` gets the new one.
 */
export function WebhookRotateButton({ strategyId, onRotated }: { strategyId: string; onRotated: (webhookUrl: string) => void }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const { canAccess } = useCanAccess({ resource: 'strategies', action: 'edit' });
  const [asking, setAsking] = useState(false);
  const rotate = useMutation({
    mutationFn: () => dataProvider.rotateWebhook(strategyId),
    onSuccess: ({ webhookUrl }) => {
      onRotated(webhookUrl);
      showResult({ type: 'success', message: t('notifications.webhookSet') });
    },
    onError: (error) => showResult({ type: 'error', message: errorMessage(error, t('notifications.rotateFailed')) }),
    onSettled: () => setAsking(false),
  });
  return (
    <>
      <Button variant="outlined" disabled={canAccess !== true || rotate.isPending} onClick={() => setAsking(true)}>
        {t('rotate.button')}
      </Button>
      <ConfirmDialog open={asking} busy={rotate.isPending} title={t('rotate.title')} content={t('rotate.content')} onCancel={() => setAsking(false)} onConfirm={() => rotate.mutate()} />
    </>
  );
}
