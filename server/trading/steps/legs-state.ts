import type { DbOrTx } from '../../db/client';
import type { ExecutionContext } from '../context';
import type { PlacedOrder } from '../exchanges/types';
import type { ExecutionLeg } from '../legs';
import { resolveAttachedLegs } from '../protection/attached';
import { cancelLeg, lookUpLeg } from '../protection/place';
import { loadSlotSiblings, takenAttachedIds } from '../slot';
import { trailingCoversPosition } from '../protection/wanted';
import { pnlOf, type Session } from './session';

export interface LegFill {
  leg: ExecutionLeg;
  quantity: number;
  price: number;
}

const round8 = (value: number) => Number(value.toFixed(8));

/** Legs the exchange can be asked about: Bybit's position trailing stop and unresolved attached legs have no id to look up. */
export function traceable(session: Session, leg: ExecutionLeg): boolean {
  if (leg.kind === 'trailing' && trailingCoversPosition(session)) return false;
  return !leg.attached || leg.exchangeOrderId !== undefined;
}

/** How much more of `leg` the exchange has filled than we have booked (0 when nothing new). */
export async function unbookedFill(session: Session, leg: ExecutionLeg): Promise<{ delta: number; order: Awaited<ReturnType<typeof lookUpLeg>> }> {
  const order = await lookUpLeg(session, leg);
  return { delta: order ? round8(order.filledQty - leg.filledQty) : 0, order };
}

/**
 * Looks every open leg up on the exchange and books new fills into the context (closed quantity and
 * realized PnL). Returns the fills found this time.
 */
export async function refreshLegs(session: Session, ctx: ExecutionContext): Promise<LegFill[]> {
  const fills: LegFill[] = [];
  for (const leg of ctx.legs) {
    if (leg.status !== 'open' || !traceable(session, leg)) continue;
    const order = await lookUpLeg(session, leg);
    const fill = order ? bookLegOrder(session, ctx, leg, order) : null;
    if (fill) fills.push(fill);
  }
  return fills;
}

/**
 * Books what the exchange says of one leg: a fill not booked yet goes into the context (closed quantity
 * and realized PnL), and a leg the exchange has finished is marked filled or cancelled. Answers the new fill.
 */
export function bookLegOrder(session: Session, ctx: ExecutionContext, leg: ExecutionLeg, order: PlacedOrder): LegFill | null {
  const delta = round8(order.filledQty - leg.filledQty);
  let fill: LegFill | null = null;
  if (delta > 0 && order.avgPrice !== undefined) {
    fill = { leg, quantity: delta, price: order.avgPrice };
    ctx.realizedPnl = round8(ctx.realizedPnl + pnlOf(session.side, ctx.entryPrice!, order.avgPrice, delta));
    ctx.closedQty = round8(ctx.closedQty + delta);
    leg.filledQty = order.filledQty;
    leg.avgPrice = order.avgPrice;
  }
  const done = order.status === 'closed' || (leg.quantity > 0 && leg.filledQty >= leg.quantity - session.market.qtyStep / 2);
  if (done && leg.filledQty > 0) leg.status = 'filled';
  else if (done || order.status === 'canceled' || order.status === 'rejected') leg.status = 'canceled';
  return fill;
}

/**
 * Finds the exchange's ids of the TP/SL the entry carried (they have no client id of ours), open or
 * recently triggered, so they can be looked up and cancelled like the other legs. Needed before this
 * execution's legs are read or cancelled while it shares its position with others.
 */
export async function traceAttachedLegs(db: DbOrTx, ctx: ExecutionContext, session: Session): Promise<void> {
  if (!ctx.legs.some((leg) => leg.attached && leg.status === 'open' && !leg.exchangeOrderId)) return;
  await resolveAttachedLegs(ctx, session, takenAttachedIds(await loadSlotSiblings(db, ctx)), true);
}

/** Cancels this execution's legs still open on the exchange (already gone is fine). */
export async function cancelOpenLegs(db: DbOrTx, session: Session, ctx: ExecutionContext): Promise<void> {
  await traceAttachedLegs(db, ctx, session);
  for (const leg of ctx.legs) {
    if (leg.status !== 'open') continue;
    if (leg.attached && !leg.exchangeOrderId) leg.status = 'canceled';
    else await cancelLeg(session, leg, trailingCoversPosition(session));
  }
}
