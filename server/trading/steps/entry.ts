import type { ExecutionContext } from '../context';
import { markEndedWithoutPosition, markEntryFilled, markEntryPlaced } from '../execution-state/entry';
import type { PlacedOrder } from '../exchanges/types';
import type { TradingRuntime } from '../runtime';
import { sizeEntry } from '../sizing';
import { FinalFailure } from './errors';
import { stopLossPrice } from './protect';
import { placeOnce, settle, type Session } from './session';

async function sizeFor(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<{ quantity: number; price: number } | null> {
  if (ctx.investType === null || ctx.investAmount === null) {
    await markEndedWithoutPosition(rt, ctx, 'skipped', `Strategy ${ctx.strategy.id} has no invest amount for this customer's group`);
    return null;
  }
  const price = ctx.referencePrice ?? (await rt.prices.price(session.exchange, session.symbol));
  const sized = sizeEntry({ investType: ctx.investType, investAmount: ctx.investAmount, leverage: ctx.strategy.leverage, price, market: session.market });
  if (!sized.ok) {
    await markEndedWithoutPosition(rt, ctx, 'skipped', sized.reason);
    return null;
  }
  return { quantity: sized.quantity, price };
}

/**
 * Places the entry once, with one request (the hot path of the fan-out): after a timeout or a crash
 * (attempt > 1) the order is first looked up by its client order id, so a retry never sends a second
 * order. The exchange's acknowledgement opens the execution; when it carries no fill (both exchanges
 * answer only the ids) the fill is read later by `learnEntryFill`, after every entry has left.
 * Returns false when the execution ended without a position (skipped or failed, audited).
 */
export async function runEntry(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<boolean> {
  const { adapter, credentials, symbol } = session;
  let placed: PlacedOrder | null = ctx.attempts > 1 ? await adapter.fetchOrderByClientId(credentials, symbol, ctx.clientOrderId) : null;
  let quantity: number | null = null;
  if (!placed) {
    if (ctx.closeRequestedAt) {
      await markEndedWithoutPosition(rt, ctx, 'skipped', 'The order was closed before this entry was placed');
      return false;
    }
    if (Date.now() > ctx.deadlineAt.getTime()) {
      throw new FinalFailure(`The entry could not be placed within ${Math.round(rt.config.entryDeadlineMs / 1000)} s of the alert, so it was dropped (a late entry is worse than none)`);
    }
    const sized = await sizeFor(rt, ctx, session);
    if (sized === null) return false;
    quantity = sized.quantity;
    // The stop rides on the entry itself, from the price the entry was sized at, so no position is
    // ever unprotected while the fan-out is still placing entries; the protect phase then moves it
    // to the same distance from the actual fill.
    const protectiveStop = stopLossPrice(ctx, session, sized.price);
    await rt.settings.ensure({
      adapter,
      credentials,
      customerId: ctx.customerId,
      platformType: ctx.platformType,
      symbol,
      wanted: { leverage: ctx.strategy.leverage, positionMode: ctx.strategy.positionMode },
    });
    const requested = quantity;
    placed = await placeOnce(session, ctx.clientOrderId, () =>
      adapter.placeEntry(credentials, {
        symbol,
        side: session.side,
        quantity: requested,
        clientOrderId: ctx.clientOrderId,
        positionMode: session.mode,
        stopLossPrice: protectiveStop,
        deadlineAt: ctx.deadlineAt.getTime(),
      }),
    );
  }
  if (isFilled(placed)) {
    await recordFill(rt, ctx, placed);
    return true;
  }
  if (placed.status !== 'unknown' && placed.status !== 'open') throw new FinalFailure(`The exchange did not fill the entry (order ${placed.status})`);
  // Acknowledged, fill not known yet: open with the quantity asked for; the fill comes before the legs.
  await markEntryPlaced(rt, ctx, { quantity: quantity ?? placed.filledQty, exchangeOrderId: placed.exchangeOrderId });
  return true;
}

/**
 * Reads the fill of an acknowledged entry (one lookup by client order id), before its TP/SL legs are
 * placed. Returns false when the exchange did not fill it: the execution then ends as failed, audited.
 */
export async function learnEntryFill(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<boolean> {
  const found = await session.adapter.fetchOrderByClientId(session.credentials, session.symbol, ctx.clientOrderId);
  if (!found) throw new Error('the exchange acknowledged the entry but does not list it yet');
  const filled = await settle(session, found);
  if (isFilled(filled)) {
    await recordFill(rt, ctx, filled);
    return true;
  }
  if (filled.status === 'open' || filled.status === 'unknown') throw new Error('the entry is not filled yet');
  await markEndedWithoutPosition(rt, ctx, 'failed', `The exchange did not fill the entry (order ${filled.status})`, 'open');
  return false;
}

function isFilled(order: PlacedOrder): order is PlacedOrder & { avgPrice: number } {
  return order.filledQty > 0 && order.avgPrice !== undefined && order.status !== 'open' && order.status !== 'unknown';
}

function recordFill(rt: TradingRuntime, ctx: ExecutionContext, filled: PlacedOrder & { avgPrice: number }): Promise<void> {
  return markEntryFilled(rt, ctx, { quantity: filled.filledQty, avgPrice: filled.avgPrice, exchangeOrderId: filled.exchangeOrderId });
}
