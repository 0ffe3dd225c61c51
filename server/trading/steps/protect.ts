import type { ExecutionContext } from '../context';
import { markLegsFilled, markProtected, requestProtectionReview, saveProgress } from '../execution-state/position';
import { loadSlotSiblings } from '../slot';
import { currentLeg } from '../legs';
import { reconcileProtection } from '../protection/reconcile';
import { remainingOf } from '../protection/wanted';
import type { TradingRuntime } from '../runtime';
import { closeForPassedStop } from './close';
import { closeBooked } from './costs';
import { cancelOpenLegs, traceAttachedLegs } from './legs-state';
import type { Session } from './session';

/**
 * Where the execution stands after its protection was brought in step; 'closing': its stop's level had
 * been passed and the book did not fill all of the close at market, which is sent again soon.
 */
export type ProtectionResult = 'protected' | 'closed' | 'closing' | 'position-gone';

/**
 * Brings the protection in step and records the outcome: take-profits executed at market are booked
 * and audited; a stop the market had passed closes what is left at market (round by round, as the
 * book allows); a position already gone is
 * left to the sync. Legs that failed are saved as far as they got and the first failure is thrown,
 * so the caller retries (deterministic client ids: nothing is placed twice).
 */
export async function applyProtection(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<ProtectionResult> {
  const outcome = await reconcileProtection(rt, ctx, session);
  const step = session.market.qtyStep;
  if (outcome.stopPassed !== null) return (await closeForPassedStop(rt, ctx, session, outcome.stopPassed, outcome.audits)) ? 'closed' : 'closing';
  if (outcome.audits.length > 0 && remainingOf(ctx) < step / 2) {
    await cancelOpenLegs(rt.db, session, ctx);
    await closeBooked(rt, ctx, session, { exitType: null, how: outcome.audits.join('; ') });
    return 'closed';
  }
  if (outcome.audits.length > 0) await markLegsFilled(rt, ctx, outcome.audits.map((message) => ({ exitType: null, message })));
  else await saveProgress(rt, ctx);
  if (outcome.positionGone) return 'position-gone';
  if (outcome.failures.length > 0) throw outcome.failures[0];
  return 'protected';
}

/**
 * Right after the fill: the stop, the take-profit legs and the trailing stop, sized to what actually
 * filled, at distances from the fill price. The TP/SL the entry carried are kept when they already
 * are exactly that (sized to the fill, at the same level), replaced otherwise.
 */
export async function runProtection(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<ProtectionResult> {
  // Resumed after a crash, the levels the entry carried are not known: read them from the exchange first.
  if (ctx.legs.some((leg) => leg.attached && leg.price === 0)) await traceAttachedLegs(rt.db, ctx, session);
  const result = await applyProtection(rt, ctx, session);
  // Joining a position held by others: they look at it now, so a stop covering all of it (Bitget's entry
  // preset) becomes its owner's alone, and legs left by one that is already flat are cancelled.
  if (ctx.sharedSlot) await requestProtectionReview(rt.db, (await loadSlotSiblings(rt.db, ctx)).map((sibling) => sibling.id));
  if (result !== 'closed') await markProtected(rt, ctx, { legs: ctx.legs, stopLossPrice: ctx.stopLossPrice ?? currentLeg(ctx.legs, 'sl')?.price ?? 0 });
  return result;
}
