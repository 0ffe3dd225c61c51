import type { ExecutionContext } from '../context';
import { markLegsFilled, requestProtectionReview, type ExitAudit } from '../execution-state/position';
import { legClosedMessage, legFilledMessage, legLostMessage } from '../exit-messages';
import { currentLeg, type ExecutionLeg } from '../legs';
import { remainingOf } from '../protection/wanted';
import type { TradingRuntime } from '../runtime';
import { loadSlotSiblings, siblingsWithWholeStop, type SlotSibling } from '../slot';
import { closeBooked } from './costs';
import { isFailure } from './errors';
import { bookUnexplained, readPosition, unexplainedShortfall } from './exchange-position';
import { cancelOpenLegs, refreshLegs, traceAttachedLegs, type LegFill } from './legs-state';
import { applyProtection } from './protect';
import type { Session } from './session';

const round8 = (value: number) => Number(value.toFixed(8));

const describe = (session: Session, fills: LegFill[]) => fills.map((fill) => legClosedMessage(fill.leg.kind, fill.leg.price, fill.quantity, session.symbol, fill.price));

/** What the exchange no longer has of this execution's legs, and what was done (the reconciler's audit). */
function repairAudits(ctx: ExecutionContext, session: Session, lost: ExecutionLeg[]): ExitAudit[] {
  return lost.map((leg) => {
    const now = currentLeg(ctx.legs, leg.kind);
    const done = now && now.round > leg.round ? `a new one was placed at ${now.price} for ${now.quantity || 'the whole position'}` : 'it is placed again at the next check';
    return { exitType: null, isError: true, message: legLostMessage(leg.kind, leg.price, leg.quantity, session.symbol, done) };
  });
}

/**
 * Books what the exchange did to a position smaller than expected: leg fills, and a shortfall nobody's legs
 * explain (closed outside the platform). Answers true when nothing of this execution is left (closed).
 */
async function bookShortfall(rt: TradingRuntime, ctx: ExecutionContext, session: Session, size: number, siblings: SlotSibling[], fills: LegFill[]): Promise<boolean> {
  const eps = session.market.qtyStep / 2;
  const shortfall = await unexplainedShortfall(ctx, session, size, siblings);
  const outside = shortfall > eps ? await bookUnexplained(rt, ctx, session, shortfall) : null;
  if (remainingOf(ctx) <= eps) {
    await cancelOpenLegs(rt.db, session, ctx);
    const how = outside?.message ?? (describe(session, fills).join(', ') || 'The exchange closed the position');
    await closeBooked(rt, ctx, session, { exitType: outside?.exitType ?? null, how });
    return true;
  }
  const audits = fills.map((fill) => ({ exitType: null, message: legFilledMessage(fill.leg.kind, fill.quantity, session.symbol, fill.price) }));
  await markLegsFilled(rt, ctx, outside ? [...audits, outside] : audits);
  return false;
}

/**
 * The reconciler's check of one execution: compares the position on the exchange with what this execution
 * and the others sharing it expect, books leg fills and closes done outside the platform, closes the
 * execution once nothing of it is left, and keeps its protection in step every time (the stop moved to
 * entry after TP1, legs resized to what is left, a leg the exchange no longer has placed again and
 * audited), whatever the sizes say. While the account's stream is up its legs are read at every check,
 * at no cost; otherwise only when the position is smaller than expected. Answers whether a follow-up is
 * still pending (retried soon).
 */
export async function runSync(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<{ followUpPending: boolean }> {
  const siblings = await loadSlotSiblings(rt.db, ctx);
  const expected = round8(remainingOf(ctx) + siblings.reduce((sum, sibling) => sum + sibling.remaining, 0));
  const { size, markPrice } = await readPosition(session, expected);
  if (markPrice !== undefined) ctx.lastMarkPrice = markPrice;
  // Nothing of it left counts too: booked whole, whatever path booked it, it is closed here (chaos seed 23).
  const short = size < expected - session.market.qtyStep / 2 || remainingOf(ctx) <= session.market.qtyStep / 2;
  let lost: ExecutionLeg[] = [];
  if (short || session.adapter.readsFromStream(session.credentials)) {
    // The TP/SL the entry carried are found by their level (they have no client id), to see whether they filled.
    await traceAttachedLegs(rt.db, ctx, session);
    const open = ctx.legs.filter((leg) => leg.status === 'open' && leg.kind !== 'close');
    const fills = await refreshLegs(session, ctx);
    if (short && (await bookShortfall(rt, ctx, session, size, siblings, fills))) return { followUpPending: false };
    lost = open.filter((leg) => leg.status === 'canceled');
  }
  await requestProtectionReview(rt.db, siblingsWithWholeStop(siblings));
  try {
    const result = await applyProtection(rt, ctx, session);
    if (lost.length > 0 && result !== 'closed') await markLegsFilled(rt, ctx, repairAudits(ctx, session, lost));
    return { followUpPending: result === 'position-gone' || result === 'closing' };
  } catch (error) {
    if (lost.length > 0) await markLegsFilled(rt, ctx, repairAudits(ctx, session, lost));
    rt.log.warn({ executionId: ctx.id, reason: error instanceof Error ? error.message : String(error), noPosition: isFailure(error, 'no_position') }, 'protection follow-up failed; retried soon');
    return { followUpPending: true };
  }
}
