import type { ExecutionContext } from '../context';
import { isFailure } from './errors';
import { pnlOf, type Session } from './session';

export interface LegFill {
  kind: string;
  quantity: number;
  price: number;
}

const round8 = (value: number) => Number(value.toFixed(8));

/**
 * Looks every open leg up on the exchange and books new fills into the context (closed quantity and
 * realized PnL). Returns the fills found this time.
 */
export async function refreshLegs(session: Session, ctx: ExecutionContext): Promise<LegFill[]> {
  const fills: LegFill[] = [];
  for (const leg of ctx.legs) {
    if (leg.status !== 'open') continue;
    const order = await session.adapter.fetchOrderByClientId(session.credentials, session.symbol, leg.clientOrderId);
    if (!order) continue;
    const delta = round8(order.filledQty - leg.filledQty);
    if (delta > 0 && order.avgPrice !== undefined) {
      fills.push({ kind: leg.kind, quantity: delta, price: order.avgPrice });
      ctx.realizedPnl = round8(ctx.realizedPnl + pnlOf(session.side, ctx.entryPrice!, order.avgPrice, delta));
      ctx.closedQty = round8(ctx.closedQty + delta);
      leg.filledQty = order.filledQty;
      leg.avgPrice = order.avgPrice;
    }
    if (order.status === 'closed' || leg.filledQty >= leg.quantity) leg.status = 'filled';
    else if (order.status === 'canceled' || order.status === 'rejected') leg.status = 'canceled';
  }
  return fills;
}

/** Cancels the legs still open on the exchange (already gone is fine). */
export async function cancelOpenLegs(session: Session, ctx: ExecutionContext, kinds?: string[]): Promise<void> {
  for (const leg of ctx.legs) {
    if (leg.status !== 'open' || (kinds && !kinds.includes(leg.kind))) continue;
    try {
      await session.adapter.cancelOrder(session.credentials, session.symbol, leg.clientOrderId);
    } catch (error) {
      if (!isFailure(error, 'not_found') && !isFailure(error, 'no_position')) throw error;
    }
    leg.status = 'canceled';
  }
}
