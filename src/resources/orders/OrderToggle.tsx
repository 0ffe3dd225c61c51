import Switch from '@mui/material/Switch';
import { useEffect, useRef, useState } from 'react';
import { useCanAccess, useRefresh, useTranslate, useUpdate } from 'react-admin';
import type { Order } from '../../../contract/api/order';
import { OrderStatus } from '../../../contract/enums';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { errorMessage, useAppDataProvider } from '../../dataProvider';
import { closeOutcomeOf, followClose } from './closeOutcome';

/** Spec 4: on while the order is Active; off while it is being closed. */
export function isOpen(order: Order): boolean {
  return order.status === OrderStatus.Active && !order.closing;
}

/** Follows an asked-for close to its end, then says what the server answers and refreshes the list and its counters. */
function useCloseFollower(orderId: number) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const refresh = useRefresh();
  const gone = useRef(false);
  useEffect(() => {
    gone.current = false;
    return () => {
      gone.current = true;
    };
  }, []);
  return async (answer: Order) => {
    const read = async () => (await dataProvider.getOne<Order>('orders', { id: orderId })).data;
    const last = await followClose(answer, read, { stopped: () => gone.current });
    if (gone.current) return;
    const outcome = closeOutcomeOf(last);
    if (outcome.kind === 'closed') showResult({ type: 'success', message: translate('app.ui.strategy.positionClosed') });
    else showResult({ type: 'error', message: translate('app.ui.strategy.positionsPartlyClosed', { closed: outcome.closed, total: outcome.total }) });
    refresh();
  };
}

/**
 * The order's toggle: an admin switches it off (after confirming), which asks the engine to close
 * every position at market; the question stays open (busy) while the close is followed, then the
 * popup tells the outcome. Employees see it disabled.
 */
export function OrderToggle({ order }: { order: Order }) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const { canAccess } = useCanAccess({ resource: 'orders', action: 'close' });
  const [asking, setAsking] = useState(false);
  const [following, setFollowing] = useState(false);
  const follow = useCloseFollower(order.id);
  const [update, { isPending }] = useUpdate<Order>(
    'orders',
    { id: order.id, data: { closing: true }, previousData: order },
    { mutationMode: 'pessimistic', mutationFn: () => dataProvider.closePosition(order.id) },
  );
  const busy = isPending || following;
  const close = () =>
    update(undefined, undefined, {
      onSuccess: (answer) => {
        setFollowing(true);
        void follow(answer)
          .catch((error: unknown) => showResult({ type: 'error', message: errorMessage(error, translate('app.ui.fallback.orderFailed')) }))
          .finally(() => {
            setFollowing(false);
            setAsking(false);
          });
      },
      onError: (error) => {
        setAsking(false);
        showResult({ type: 'error', message: errorMessage(error, translate('app.ui.fallback.orderFailed')) });
      },
    });
  const open = isOpen(order);
  return (
    <>
      <Switch
        checked={open}
        disabled={canAccess !== true || !open || busy}
        slotProps={{ input: { 'aria-label': translate('resources.orders.actions.toggle', { id: order.id }) } }}
        onChange={() => setAsking(true)}
      />
      <ConfirmDialog
        open={asking}
        busy={busy}
        title={translate('resources.orders.confirm.title')}
        content={translate(following ? 'resources.orders.confirm.closing' : 'resources.orders.confirm.content')}
        onCancel={() => setAsking(false)}
        onConfirm={close}
      />
    </>
  );
}
