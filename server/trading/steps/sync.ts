import { ExitType } from '../../../contract/enums';
import type { ExecutionContext } from '../context';
import { markClosed, markLegsFilled, requestProtectionReview } from '../execution-state/position';
import { closedOutsideMessage, legClosedMessage, legFilledMessage, withRealizedPnl } from '../exit-messages';
import { legLabel } from '../legs';
import { passed } from '../protection/levels';
import { remainingOf } from '../protection/wanted';
import type { TradingRuntime } from '../runtime';
import { loadSlotSiblings, siblingsWithWholeStop, type SlotSibling } from '../slot';
import { isFailure } from './errors';
import { cancelOpenLegs, refreshLegs, traceable, traceAttachedLegs, unbookedFill, type LegFill } from './legs-state';
import { applyProtection } from './protect';
import { pnlOf, type Session } from './session';

const round8 = (value: number) => Number(value.toFixed(8));

/**
 * What the exchange closed outside this execution's own legs: the stop attached to the entry before its
 * legs replaced it, Bybit's position trailing stop, or the customer by hand. Priced at the current
 * market price, which the sync sees moments later: an estimate, said so in the audit.
 */
async function bookUnexplained(rt: TradingRuntime, ctx: ExecutionContext, session: Session, quantity: number): Promise<{ exitType: ExitType | null; message: string }> {
  const price = await rt.prices.price(session.exchange, session.symbol, 0).catch(() => ctx.lastMarkPrice ?? ctx.entryPrice!);
  ctx.realizedPnl = round8(ctx.realizedPnl + pnlOf(session.side, ctx.entryPrice!, price, quantity));
  ctx.closedQty = round8(ctx.closedQty + quantity);
  const stop = ctx.stopLossPrice;
  if (stop !== null && passed(session, stop * (session.side === 'long' ? 1.002 : 0.998), price, 'loss')) {
    return { exitType: null, message: `Stop loss at ${stop} closed ${quantity} ${session.symbol} (about ${price})` };
  }
  // The take-profit the entry carried (no client id to look it up by) once the market has reached it.
  const carried = ctx.legs.find((leg) => leg.attached && leg.status === 'open' && leg.kind !== 'sl' && passed(session, leg.price, price, 'profit'));
  if (carried) {
    carried.status = 'filled';
    return { exitType: null, message: `${legLabel[carried.kind]} at ${carried.price} closed ${quantity} ${session.symbol} (about ${price})` };
  }
  const trailing = ctx.legs.find((leg) => leg.kind === 'trailing' && leg.status === 'open' && !traceable(session, leg));
  if (trailing && passed(session, ctx.entryPrice!, price, 'profit')) {
    trailing.status = 'filled';
    return { exitType: null, message: `Trailing stop (activation ${trailing.price}) closed ${quantity} ${session.symbol} (about ${price})` };
  }
  return { exitType: ExitType.Customer, message: closedOutsideMessage(quantity, session.symbol, price) };
}

/** Fills of the other executions' legs the exchange made but they have not booked yet (read only). */
async function siblingsUnbooked(session: Session, siblings: SlotSibling[]): Promise<number> {
  let total = 0;
  for (const leg of siblings.flatMap((sibling) => sibling.legs)) {
    if (leg.status === 'open' && traceable(session, leg)) total += (await unbookedFill(session, leg)).delta;
  }
  return round8(total);
}

/**
 * How much of this execution the exchange closed outside its own legs. The position's size is the sum
 * of what is left of every execution sharing it; a shortfall the legs do not explain is this
 * execution's when the position is flat, or when it is the oldest of the position (so two executions
 * never both book the same manual close), after the others' unbooked leg fills are counted.
 */
async function unexplainedShortfall(ctx: ExecutionContext, session: Session, size: number, siblings: SlotSibling[]): Promise<number> {
  const eps = session.market.qtyStep / 2;
  const remaining = remainingOf(ctx);
  if (size <= eps) return remaining;
  if (siblings.some((sibling) => sibling.id < ctx.id)) return 0;
  const others = round8(siblings.reduce((sum, sibling) => sum + sibling.remaining, 0) - (await siblingsUnbooked(session, siblings)));
  return Math.min(remaining, Math.max(0, round8(remaining - (size - others))));
}

const describe = (session: Session, fills: LegFill[]) => fills.map((fill) => legClosedMessage(fill.leg.kind, fill.leg.price, fill.quantity, session.symbol, fill.price));

/**
 * Compares the position on the exchange with what this execution and the others sharing it expect. Books
 * leg fills and closes done outside the platform, closes the execution once nothing of it is left, and
 * keeps its protection in step every time (the stop moved to entry after TP1, legs resized to what is
 * left), whatever the sizes say. Answers whether a follow-up is still pending (retried soon).
 */
export async function runSync(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<{ followUpPending: boolean }> {
  const positions = await session.adapter.fetchPositions(session.credentials, [session.symbol]);
  const position = positions.find((p) => p.symbol === session.symbol && p.side === session.side);
  const size = position?.size ?? 0;
  if (position?.markPrice !== undefined) ctx.lastMarkPrice = position.markPrice;
  const eps = session.market.qtyStep / 2;
  const siblings = await loadSlotSiblings(rt.db, ctx);
  const expected = round8(remainingOf(ctx) + siblings.reduce((sum, sibling) => sum + sibling.remaining, 0));
  if (size < expected - eps) {
    // The TP/SL the entry carried are found by their level (they have no client id), to see whether they filled.
    await traceAttachedLegs(rt.db, ctx, session);
    const fills = await refreshLegs(session, ctx);
    const shortfall = await unexplainedShortfall(ctx, session, size, siblings);
    const outside = shortfall > eps ? await bookUnexplained(rt, ctx, session, shortfall) : null;
    if (remainingOf(ctx) <= eps) {
      await cancelOpenLegs(rt.db, session, ctx);
      const how = outside?.message ?? (describe(session, fills).join(', ') || 'The exchange closed the position');
      await markClosed(rt, ctx, { exitType: outside?.exitType ?? null, message: withRealizedPnl(how, ctx.realizedPnl) });
      return { followUpPending: false };
    }
    const audits = fills.map((fill) => ({ exitType: null, message: legFilledMessage(fill.leg.kind, fill.quantity, session.symbol, fill.price) }));
    await markLegsFilled(rt, ctx, outside ? [...audits, outside] : audits);
  }
  await requestProtectionReview(rt.db, siblingsWithWholeStop(siblings));
  try {
    const result = await applyProtection(rt, ctx, session);
    return { followUpPending: result === 'position-gone' };
  } catch (error) {
    rt.log.warn({ executionId: ctx.id, reason: error instanceof Error ? error.message : String(error), noPosition: isFailure(error, 'no_position') }, 'protection follow-up failed; retried soon');
    return { followUpPending: true };
  }
}
