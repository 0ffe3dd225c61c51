import Switch from '@mui/material/Switch';
import { useState } from 'react';
import { useCanAccess, useTranslate, useUpdate } from 'react-admin';
import type { Order } from '../../../contract/api/order';
import { OrderStatus } from '../../../contract/enums';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { errorMessage, useAppDataProvider } from '../../dataProvider';

/** Spec 4: on while the order is Active; off once closed or being closed. */
export function isOpen(order: Order): boolean {
  return order.status === OrderStatus.Active && !order.closing;
}

/**
 * The order's toggle: an admin switches it off (after confirming), which closes every position at
 * market and cannot be undone. The dataProvider's `closePosition` runs through react-admin's
 * `useUpdate`, so the row shows the answer ('closing') at once. Employees see it disabled.
 */
export function OrderToggle({ order }: { order: Order }) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const { canAccess } = useCanAccess({ resource: 'orders', action: 'close' });
  const [asking, setAsking] = useState(false);
  const [update, { isPending }] = useUpdate<Order>(
    'orders',
    { id: order.id, data: { closing: true }, previousData: order },
    { mutationMode: 'pessimistic', mutationFn: () => dataProvider.closePosition(order.id) },
  );
  const open = isOpen(order);
  const close = () =>
    update(undefined, undefined, {
      onSuccess: () => {
        setAsking(false);
        showResult({ type: 'success', message: translate('app.ui.strategy.positionClosed') });
      },
      onError: (error) => {
        setAsking(false);
        showResult({ type: 'error', message: errorMessage(error, translate('app.ui.fallback.orderFailed')) });
      },
    });
  return (
    <>
      <Switch
        checked={open}
        disabled={canAccess !== true || !open || isPending}
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
