import type { ExecutionContext } from '../context';
import { currentLeg, isTakeProfit, supersededLegs, type ExecutionLeg } from '../legs';
import type { TradingRuntime } from '../runtime';
import { priceAway } from '../sizing';
import { isFailure, isLevelPassed } from '../steps/errors';
import type { Session } from '../steps/session';
import { passed } from './levels';
import { loadSlotSiblings, slotShared, takenAttachedIds } from '../slot';
import { resolveAttachedLegs } from './attached';
import { takeAtMarket } from './market';
import { cancelLeg, placeLeg } from './place';
import { stopTarget, trailingCoversPosition, wantedProtection, type WantedLeg } from './wanted';

/** What bringing the protection in step did besides placing and cancelling legs. */
export interface ReconcileOutcome {
  /** Exit audits of take-profits executed at market because the market had passed their level. */
  audits: string[];
  /** The stop's level had been passed: what is left must be closed at market now (the level and the price seen). */
  stopPassed: { level: number; price: number } | null;
  /** The position is gone on the exchange: the sync books how. */
  positionGone: boolean;
  /** Legs that could not be placed or cancelled this time (retried on the next run). */
  failures: unknown[];
}

/** A stop refused although the market has not reached it (Bitget 40833: a long's stop at its open price) moves this many ticks at most. */
const STOP_TICKS_AWAY = 3;
const PASSES = 3;
/** How old a shared price may be to hint that a level has been passed (then confirmed with a fresh read). */
const RECENT_PRICE_MS = 200;

/**
 * Whether a leg already is what is wanted. A leg covering the whole position (Bitget's entry preset) is
 * this execution's own only while no other execution shares the position (`alone`).
 */
async function matches(leg: ExecutionLeg, wanted: WantedLeg, session: Session, alone: () => Promise<boolean>): Promise<boolean> {
  const samePrice = Math.abs((leg.target ?? leg.price) - wanted.price) <= session.market.tickSize / 2;
  if (leg.kind === 'trailing' && trailingCoversPosition(session)) return samePrice;
  if (leg.attached && leg.quantity === 0) return samePrice && (await alone());
  return samePrice && Math.abs(leg.quantity - leg.filledQty - wanted.quantity) <= session.market.qtyStep / 2;
}

const nextRound = (legs: ExecutionLeg[], kind: ExecutionLeg['kind']) => Math.max(-1, ...legs.filter((leg) => leg.kind === kind && !leg.attached).map((leg) => leg.round)) + 1;

const directionOf = (wanted: WantedLeg) => (wanted.kind === 'sl' ? 'loss' : 'profit');

/**
 * A level the market has already passed: a take-profit is taken at market (reduce-only, this leg's
 * size); a stop is reported so what is left is closed; a trailing stop activates from the price now.
 */
async function executePassed(ctx: ExecutionContext, session: Session, wanted: WantedLeg, round: number, price: number, outcome: ReconcileOutcome): Promise<ExecutionLeg | null> {
  if (wanted.kind === 'sl') {
    outcome.stopPassed = { level: wanted.price, price };
    return null;
  }
  if (isTakeProfit(wanted.kind)) {
    const taken = await takeAtMarket(ctx, session, wanted, round, price);
    if (!taken) outcome.positionGone = true;
    else outcome.audits.push(taken.audit);
    return taken?.leg ?? null;
  }
  return placeLeg(ctx, session, wanted, priceAway(price, session.side, session.market.tickSize, 'profit', session.market.tickSize), round);
}

/**
 * Whether the market has passed the level: a price read in the last moments (shared by every execution
 * on the symbol) hints, a fresh read confirms. What this misses, the exchange refuses (`isLevelPassed`).
 */
async function passedNow(rt: TradingRuntime, session: Session, wanted: WantedLeg): Promise<number | null> {
  const cached = await rt.prices.triggerPrice(session.exchange, session.symbol, RECENT_PRICE_MS).catch(() => null);
  if (cached === null || !passed(session, wanted.price, cached, directionOf(wanted))) return null;
  const fresh = await rt.prices.triggerPrice(session.exchange, session.symbol, 0);
  return passed(session, wanted.price, fresh, directionOf(wanted)) ? fresh : null;
}

/**
 * Places one wanted leg, or executes it at once when the market has already passed its level (seen
 * here, or said by the exchange refusing it). A stop refused short of the market (a stop exactly at
 * the open price) goes a tick further, a few times at most.
 */
async function placeOrExecute(rt: TradingRuntime, ctx: ExecutionContext, session: Session, wanted: WantedLeg, round: number, outcome: ReconcileOutcome): Promise<ExecutionLeg | null> {
  const passedAt = await passedNow(rt, session, wanted);
  if (passedAt !== null) return executePassed(ctx, session, wanted, round, passedAt, outcome);
  try {
    return await placeLeg(ctx, session, wanted, wanted.price, round);
  } catch (error) {
    if (!isLevelPassed(error)) throw error;
    const price = await rt.prices.triggerPrice(session.exchange, session.symbol, 0);
    if (passed(session, wanted.price, price, directionOf(wanted))) return executePassed(ctx, session, wanted, round, price, outcome);
    if (wanted.kind !== 'sl') throw error;
    const tick = session.market.tickSize;
    for (let ticks = 1; ticks <= STOP_TICKS_AWAY; ticks += 1) {
      try {
        return await placeLeg(ctx, session, wanted, priceAway(wanted.price, session.side, ticks * tick, 'loss', tick), round);
      } catch (again) {
        if (!isLevelPassed(again)) throw again;
      }
    }
    throw error;
  }
}

/** Cancels the legs new ones replaced; attached legs are looked up first (they have no client id). */
async function cancelReplaced(rt: TradingRuntime, ctx: ExecutionContext, session: Session, replaced: ExecutionLeg[], outcome: ReconcileOutcome): Promise<void> {
  if (replaced.some((leg) => leg.attached && !leg.exchangeOrderId)) {
    try {
      // Replaced anyway: one that is no longer open has nothing left to cancel.
      for (const gone of await resolveAttachedLegs(ctx, session, takenAttachedIds(await loadSlotSiblings(rt.db, ctx)))) if (replaced.includes(gone)) gone.status = 'canceled';
    } catch (error) {
      outcome.failures.push(error);
    }
  }
  for (const leg of replaced) {
    if (leg.status !== 'open' || (leg.attached && !leg.exchangeOrderId)) continue;
    await cancelLeg(session, leg, trailingCoversPosition(session)).catch((error: unknown) => outcome.failures.push(error));
  }
}

/**
 * Brings this execution's protection on the exchange in step with what it should be (`wantedProtection`):
 * missing legs placed, changed ones (resized after a partial close, the stop moved to entry) replaced
 * by a new round, the old one cancelled only after the new one is in, so the position is never without
 * a stop. The stop goes first; the take-profit legs and the trailing stop then go together. Never stops
 * halfway: a leg that fails does not keep the others from being placed.
 */
export async function reconcileProtection(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<ReconcileOutcome> {
  const outcome: ReconcileOutcome = { audits: [], stopPassed: null, positionGone: false, failures: [] };
  const replaced = supersededLegs(ctx.legs);
  let shared: Promise<boolean> | undefined;
  const alone = async () => !(await (shared ??= slotShared(rt.db, ctx)));
  for (let pass = 0; pass < PASSES; pass += 1) {
    let changed = false;
    // Only what still fails on the last pass counts: a leg refused once and placed on the next pass is done.
    outcome.failures = [];
    const bring = async (wanted: WantedLeg): Promise<void> => {
      const current = currentLeg(ctx.legs, wanted.kind);
      if (current && (await matches(current, wanted, session, alone))) return;
      try {
        const placed = await placeOrExecute(rt, ctx, session, wanted, nextRound(ctx.legs, wanted.kind), outcome);
        if (!placed) return;
        ctx.legs.push(placed);
        changed = true;
        if (current) replaced.push(current);
      } catch (error) {
        if (isFailure(error, 'no_position')) outcome.positionGone = true;
        else outcome.failures.push(error);
      }
    };
    const [first, ...rest] = wantedProtection(ctx, session);
    if (first) await bring(first);
    if (outcome.stopPassed === null && !outcome.positionGone) await Promise.all(rest.map(bring));
    if (outcome.stopPassed !== null || outcome.positionGone) return outcome;
    if (!changed) break;
  }
  await cancelReplaced(rt, ctx, session, replaced, outcome);
  const stop = currentLeg(ctx.legs, 'sl');
  const target = stopTarget(ctx, session);
  ctx.stopMovedToEntry = target.atEntry && stop !== undefined && Math.abs((stop.target ?? stop.price) - target.price) <= session.market.tickSize / 2;
  ctx.stopLossPrice = stop?.price ?? ctx.stopLossPrice;
  return outcome;
}
