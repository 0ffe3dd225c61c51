import Switch from '@mui/material/Switch';
import { useState } from 'react';
import { useTranslate, useUpdate } from 'react-admin';
import type { Order } from '../../../contract/api/order';
import { OrderStatus } from '../../../contract/enums';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { Result } from '../../components/ResultPopup';
import { errorMessage } from '../../dataProvider';
import { useCan } from '../common/useCan';

/**
 * On while the order is Active. An admin switches it off (after confirming), which closes every
 * position at market and cannot be undone; employees see it disabled.
 */
export function OrderToggle({ order, onResult, onClosed }: { order: Order; onResult: (result: Result) => void; onClosed: () => void }) {
  const translate = useTranslate();
  const canClose = useCan('orders', 'close');
  const [asking, setAsking] = useState(false);
  const [update, { isPending }] = useUpdate<Order>();
  const active = order.status === OrderStatus.Active;
  const close = () =>
    update(
      'orders',
      { id: order.id, data: {}, previousData: order },
      {
        onSuccess: () => {
          setAsking(false);
          onResult({ type: 'success', message: translate('app.ui.strategy.positionClosed') });
          onClosed();
        },
        onError: (error) => {
          setAsking(false);
          onResult({ type: 'error', message: errorMessage(error, translate('app.ui.fallback.orderFailed')) });
        },
      },
    );
  return (
    <>
      <Switch
        checked={active}
        disabled={!canClose || !active || isPending}
        slotProps={{ input: { 'aria-label': translate('resources.orders.actions.toggle', { id: order.id }) } }}
        onChange={() => setAsking(true)}
      />
      <ConfirmDialog
        open={asking}
        busy={isPending}
        title={translate('resources.orders.confirm.title')}
        content={translate('resources.orders.confirm.content')}
        onCancel={() => setAsking(false)}
        onConfirm={close}
      />
    </>
  );
}
