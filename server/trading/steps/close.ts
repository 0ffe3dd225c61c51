import { ExitType } from '../../../contract/enums';
import type { ExecutionContext } from '../context';
import { markLegsFilled, saveProgress, type ExitAudit } from '../execution-state/position';
import type { PlacedOrder } from '../exchanges/types';
import { closedAtMarketMessage, closeIncompleteMessage, legClosedMessage } from '../exit-messages';
import { executionClientOrderId } from '../ids';
import type { ExecutionLeg } from '../legs';
import { reconcileProtection } from '../protection/reconcile';
import { remainingOf } from '../protection/wanted';
import type { TradingRuntime } from '../runtime';
import { loadSlotSiblings } from '../slot';
import { closeBooked } from './costs';
import { isFailure } from './errors';
import { bookUnexplained, readPosition, unexplainedShortfall } from './exchange-position';
import { bookLegOrder, cancelOpenLegs, refreshLegs, traceAttachedLegs, type LegFill } from './legs-state';
import { settle, type Session } from './session';

/** A close that left part of the position open is sent again this soon: quickly at first, then every 10 s. */
export const closeRetryMs = (rounds: number) => Math.min(10_000, 500 * 2 ** Math.max(0, rounds - 1));

/** What is known of this execution on the exchange after reading it. */
interface Held {
  /** What is left of it on the exchange. */
  held: number;
  /** Fills of its legs (take-profits, stops, earlier close rounds) booked by this reading. */
  fills: LegFill[];
  /** A reduction nobody's legs explain (a manual close, a liquidation), booked by this reading. */
  outside: ExitAudit | null;
}

const closeRounds = (ctx: ExecutionContext) => ctx.legs.filter((leg) => leg.kind === 'close');

/**
 * Reads what is left of this execution on the exchange: its legs' fills are booked (earlier close rounds
 * included), then the position's size is read, and a shortfall its legs do not explain is booked as
 * closed outside the platform. The position read is what decides, never the orders we sent.
 */
async function heldOnExchange(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<Held> {
  await traceAttachedLegs(rt.db, ctx, session);
  const fills = await refreshLegs(session, ctx);
  const siblings = await loadSlotSiblings(rt.db, ctx);
  const { size, markPrice } = await readPosition(session, remainingOf(ctx) + siblings.reduce((sum, sibling) => sum + sibling.remaining, 0));
  if (markPrice !== undefined) ctx.lastMarkPrice = markPrice;
  const shortfall = await unexplainedShortfall(ctx, session, size, siblings);
  const outside = shortfall > session.market.qtyStep / 2 ? await bookUnexplained(rt, ctx, session, shortfall) : null;
  return { held: remainingOf(ctx), fills, outside };
}

/** The reduce-only market order of one close round; null when the exchange has no position to reduce. */
async function placeClose(session: Session, leg: ExecutionLeg): Promise<PlacedOrder | null> {
  const { adapter, credentials } = session;
  try {
    return await adapter.closePosition(credentials, { symbol: session.symbol, side: session.side, clientOrderId: leg.clientOrderId, positionMode: session.mode, quantity: leg.quantity });
  } catch (error) {
    // Nothing to close, or nothing in the book to close it with (Bitget refuses, Bybit cancels unfilled): no fill this round.
    if (isFailure(error, 'no_position') || isFailure(error, 'no_liquidity')) return null;
    throw error;
  }
}

/**
 * One round: a reduce-only market order for what is left, with a client id of its own (recorded before
 * it is sent, so a crash finds it), and its fill booked. The book may fill all of it, part or nothing.
 */
async function sendCloseRound(rt: TradingRuntime, ctx: ExecutionContext, session: Session, quantity: number): Promise<void> {
  const round = Math.max(-1, ...closeRounds(ctx).map((leg) => leg.round)) + 1;
  const clientOrderId = executionClientOrderId(ctx.orderId, ctx.customerId, 'close', round);
  const leg: ExecutionLeg = { kind: 'close', clientOrderId, quantity, price: 0, filledQty: 0, avgPrice: null, status: 'open', round };
  ctx.legs.push(leg);
  await saveProgress(rt, ctx);
  const placed = await placeClose(session, leg);
  if (!placed) leg.status = 'canceled';
  else bookLegOrder(session, ctx, leg, await settle(session, placed));
}

/** Closes at market as far as the book allows: at most one round, then the position read again. */
async function closeOneRound(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<Held> {
  const before = await heldOnExchange(rt, ctx, session);
  if (before.held < session.market.qtyStep / 2) return before;
  await sendCloseRound(rt, ctx, session, before.held);
  const after = await heldOnExchange(rt, ctx, session);
  return { held: after.held, fills: [...before.fills, ...after.fills], outside: after.outside ?? before.outside };
}

/** What the close rounds filled together: "0.016 BTCUSDT at 60000", or null when none filled. */
function closeDetail(ctx: ExecutionContext, symbol: string): string | null {
  const filled = closeRounds(ctx).filter((leg) => leg.filledQty > 0);
  const quantity = Number(filled.reduce((sum, leg) => sum + leg.filledQty, 0).toFixed(8));
  if (quantity <= 0) return null;
  const price = filled.reduce((sum, leg) => sum + leg.filledQty * leg.avgPrice!, 0) / quantity;
  const rounds = filled.length > 1 ? ` (${filled.length} orders)` : '';
  return `${quantity} ${symbol} at ${Number(price.toPrecision(10))}${rounds}`;
}

/** How a close that is done ended: what the close orders filled, else what closed the position. */
function closedExit(ctx: ExecutionContext, session: Session, state: Held): { exitType: ExitType | null; how: string } {
  const detail = closeDetail(ctx, session.symbol);
  if (detail !== null) return { exitType: (ctx.exitType as ExitType | null) ?? null, how: closedAtMarketMessage(ctx.exitType, detail) };
  if (state.outside) return { exitType: state.outside.exitType, how: state.outside.message };
  const legs = state.fills.map((fill) => legClosedMessage(fill.leg.kind, fill.leg.price, fill.quantity, session.symbol, fill.price)).join(', ');
  const how = legs || 'the position was already flat on the exchange';
  return { exitType: (ctx.exitType as ExitType | null) ?? null, how: closedAtMarketMessage(ctx.exitType, how) };
}

/**
 * Part of the position is still open after a round: its stop and take-profits are brought to what is
 * left (the stop put back where it is missing), and the first time staff are told (an error exit audit).
 */
async function keepProtected(rt: TradingRuntime, ctx: ExecutionContext, session: Session, firstRound: boolean): Promise<void> {
  const outcome = await reconcileProtection(rt, ctx, session);
  const audits: ExitAudit[] = outcome.audits.map((message) => ({ exitType: null, message }));
  if (firstRound) audits.push({ exitType: (ctx.exitType as ExitType | null) ?? null, message: closeIncompleteMessage(ctx.exitType, remainingOf(ctx), session.symbol), isError: true });
  await markLegsFilled(rt, ctx, audits);
  if (outcome.failures.length > 0) rt.log.warn({ executionId: ctx.id, reason: String(outcome.failures[0]) }, 'protection of a position still closing failed; retried with the close');
}

export type CloseOutcome = { closed: true } | { closed: false; retryInMs: number };

/**
 * A requested close (by admin, by signal): what is left goes out at market, reduce-only and sized to this
 * execution, before any of its legs is cancelled. The execution is closed only once the exchange shows
 * none of it left; until then what is left keeps its stop and the close is sent again (a new order).
 */
export async function runClose(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<CloseOutcome> {
  const roundsBefore = closeRounds(ctx).length;
  const state = await closeOneRound(rt, ctx, session);
  if (state.held < session.market.qtyStep / 2) {
    await cancelOpenLegs(rt.db, session, ctx);
    await closeBooked(rt, ctx, session, closedExit(ctx, session, state));
    return { closed: true };
  }
  await keepProtected(rt, ctx, session, roundsBefore === 0);
  return { closed: false, retryInMs: closeRetryMs(roundsBefore + 1) };
}

/**
 * A stop whose level the market has passed: what is left is closed at market now, one round at a time.
 * Answers whether the execution is closed (else the protection follow-up sends another round soon).
 */
export async function closeForPassedStop(rt: TradingRuntime, ctx: ExecutionContext, session: Session, stop: { level: number; price: number }, prior: string[]): Promise<boolean> {
  const state = await closeOneRound(rt, ctx, session);
  const before = prior.length ? `${prior.join('; ')}; ` : '';
  if (state.held >= session.market.qtyStep / 2) {
    await markLegsFilled(rt, ctx, prior.map((message) => ({ exitType: null, message })));
    return false;
  }
  await cancelOpenLegs(rt.db, session, ctx);
  const detail = closeDetail(ctx, session.symbol) ?? 'the position was already flat';
  await closeBooked(rt, ctx, session, { exitType: null, how: `${before}Stop loss at ${stop.level} had already been passed (price ${stop.price}): closed at market, ${detail}` });
  return true;
}
