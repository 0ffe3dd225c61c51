import type { ExecutionContext } from '../context';
import { markClosed, markLegsFilled, requestProtectionReview } from '../execution-state/position';
import { legClosedMessage, legFilledMessage, withRealizedPnl } from '../exit-messages';
import { remainingOf } from '../protection/wanted';
import type { TradingRuntime } from '../runtime';
import { loadSlotSiblings, siblingsWithWholeStop } from '../slot';
import { isFailure } from './errors';
import { bookUnexplained, readPosition, unexplainedShortfall } from './exchange-position';
import { cancelOpenLegs, refreshLegs, traceAttachedLegs, type LegFill } from './legs-state';
import { applyProtection } from './protect';
import type { Session } from './session';

const round8 = (value: number) => Number(value.toFixed(8));

const describe = (session: Session, fills: LegFill[]) => fills.map((fill) => legClosedMessage(fill.leg.kind, fill.leg.price, fill.quantity, session.symbol, fill.price));

/**
 * Compares the position on the exchange with what this execution and the others sharing it expect. Books
 * leg fills and closes done outside the platform, closes the execution once nothing of it is left, and
 * keeps its protection in step every time (the stop moved to entry after TP1, legs resized to what is
 * left), whatever the sizes say. Answers whether a follow-up is still pending (retried soon).
 */
export async function runSync(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<{ followUpPending: boolean }> {
  const { size, markPrice } = await readPosition(session);
  if (markPrice !== undefined) ctx.lastMarkPrice = markPrice;
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
    return { followUpPending: result === 'position-gone' || result === 'closing' };
  } catch (error) {
    rt.log.warn({ executionId: ctx.id, reason: error instanceof Error ? error.message : String(error), noPosition: isFailure(error, 'no_position') }, 'protection follow-up failed; retried soon');
    return { followUpPending: true };
  }
}
