import { TakeProfitMode } from '../../../contract/enums';
import type { ExecutionContext } from '../context';
import { markEndedWithoutPosition, markEntryFilled } from '../execution-state/entry';
import type { EntryRequest, PlacedOrder, RiskTier } from '../exchanges/types';
import type { ExecutionLeg } from '../legs';
import { stopLossPrice, takeProfitPrices } from '../protection/levels';
import { expectedFill } from '../prices';
import type { TradingRuntime } from '../runtime';
import { leverageHeldMessage } from '../position-sharing';
import { nearestLiquidation, roundToStep, sizeEntry } from '../sizing';
import { symbolHolder } from '../slot';
import { FinalFailure, isFailure, isLevelPassed } from './errors';
import { settle, STREAM_FILL_WAIT_MS, type Session } from './session';
import { engineMetrics } from '../engine-metrics';
import { slippageRefusal, SLIPPAGE_SKIP_PREFIX } from '../guards';
import { customerGuardRefusal } from './customer-guards';

async function sizeFor(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<{ quantity: number; price: number } | null> {
  if (ctx.investType === null || ctx.investAmount === null) {
    await markEndedWithoutPosition(rt, ctx, 'skipped', `Strategy ${ctx.strategy.id} has no invest amount for this customer's group`);
    return null;
  }
  const deadline = ctx.deadlineAt.getTime();
  const slipped = await slippageGuard(rt, ctx, session, deadline);
  if (slipped !== null) {
    await markEndedWithoutPosition(rt, ctx, 'skipped', slipped);
    return null;
  }
  const price = ctx.referencePrice ?? (await rt.prices.price(session.exchange, session.symbol, undefined, deadline));
  // Tiers are read once an hour per symbol; not published (or not readable now): the order maximum alone.
  // Not read by the entry's deadline (a ban outlasting it included): the entry is dropped.
  const tiers = await session.adapter.riskTiers(session.symbol, deadline).catch((error: unknown) => {
    if (isFailure(error, 'deadline')) throw error;
    return [];
  });
  const sized = sizeEntry({ investType: ctx.investType, investAmount: ctx.investAmount, leverage: ctx.strategy.leverage, price, market: session.market, tiers });
  const refusal = sized.ok
    ? (stopBeyondLiquidation(ctx, session, price, sized.quantity, tiers) ?? (await customerGuardRefusal(rt, ctx, session, { quantity: sized.quantity, price }, deadline)))
    : sized.reason;
  if (refusal === null && sized.ok) return { quantity: sized.quantity, price };
  await markEndedWithoutPosition(rt, ctx, 'skipped', refusal ?? '');
  return null;
}

/**
 * The strategy's slippage guard, when it has one and the alert carried its price: the audit text of an
 * entry whose expected fill has moved too far from that price, or null. A quote not read (other than at
 * the entry's deadline, which drops the entry) skips the entry too: the guard cannot say it is within.
 */
async function slippageGuard(rt: TradingRuntime, ctx: ExecutionContext, session: Session, deadline: number): Promise<string | null> {
  const maxBps = ctx.strategy.maxSlippageBps;
  if (maxBps === null || ctx.referencePrice === null) return null;
  try {
    const quote = await rt.prices.quote(session.exchange, session.symbol, undefined, deadline);
    return slippageRefusal(ctx.referencePrice, quote, session.side, maxBps);
  } catch (error) {
    if (isFailure(error, 'deadline')) throw error;
    return `${SLIPPAGE_SKIP_PREFIX}: unknown, the book could not be read to compare it with the alert's ${ctx.referencePrice}`;
  }
}

/** D7: a stop the liquidation comes before never protects; the reason the entry is skipped, or null. */
function stopBeyondLiquidation(ctx: ExecutionContext, session: Session, price: number, quantity: number, tiers: readonly RiskTier[]): string | null {
  const liquidation = nearestLiquidation(session.side, price, quantity, ctx.strategy.leverage, tiers);
  if (liquidation === null) return null;
  const stop = stopLossPrice(ctx, session, price);
  if (session.side === 'long' ? stop > liquidation : stop < liquidation) return null;
  const about = roundToStep(liquidation, session.market.tickSize);
  return `The stop loss at ${stop} is beyond the liquidation price (about ${about} at ${ctx.strategy.leverage}x on isolated margin): the position would be liquidated before its stop, so this entry was skipped`;
}

async function expectedFillPrice(rt: TradingRuntime, session: Session, fallback: number, deadline: number): Promise<number> {
  return rt.prices
    .quote(session.exchange, session.symbol, undefined, deadline)
    .then((quote) => expectedFill(quote, session.side))
    .catch(() => fallback);
}

const deadlineMessage = (ctx: ExecutionContext) =>
  `The entry could not be placed within ${Number((ctx.entryWindowMs / 1000).toFixed(1))} s of the alert, so it was dropped (a late entry is worse than none)`;

/** `work`, whose requests carry the entry's deadline: refused unsent at it (or during a ban that outlasts it), the entry is dropped. */
async function droppedAtDeadline<T>(ctx: ExecutionContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isFailure(error, 'deadline')) throw new FinalFailure(deadlineMessage(ctx));
    throw error;
  }
}

/** The levels attached to the entry order. */
type AttachedLevels = Pick<EntryRequest, 'stopLossPrice' | 'takeProfitPrice'>;

/**
 * The protection that rides on the entry order, from the price the entry is sized at. The stop, always
 * where the exchange sizes it to the fill (Bybit tpslMode Partial: it is this execution's own); where
 * it would be the whole position's stop (Bitget preset), only while no other execution shares the
 * position. On Bybit also the one take-profit of Full mode, sized to the fill.
 */
function attachedLevels(ctx: ExecutionContext, session: Session, price: number): AttachedLevels {
  const sized = session.adapter.sizedEntryProtection;
  if (!sized && ctx.sharedSlot) return {};
  const levels: AttachedLevels = { stopLossPrice: stopLossPrice(ctx, session, price) };
  if (sized && ctx.strategy.takeProfitMode === TakeProfitMode.Full) levels.takeProfitPrice = takeProfitPrices(ctx, session, price)[0]!;
  return levels;
}

const levelsNotKnown = (levels: AttachedLevels) => ({
  ...(levels.stopLossPrice !== undefined ? { stopLossPrice: 0 } : {}),
  ...(levels.takeProfitPrice !== undefined ? { takeProfitPrice: 0 } : {}),
});

/**
 * The legs the exchange makes from the entry's attached levels, recorded with the entry (price 0: level
 * not known, after a crash): sized to the entry where the exchange sizes them, else quantity 0 (the whole position).
 */
function attachedLegs(levels: AttachedLevels, quantity: number): ExecutionLeg[] {
  const leg = (kind: ExecutionLeg['kind'], price: number): ExecutionLeg => ({ kind, clientOrderId: '', attached: true, quantity, price, filledQty: 0, avgPrice: null, status: 'open', round: -1 });
  return [
    ...(levels.stopLossPrice !== undefined ? [leg('sl', levels.stopLossPrice)] : []),
    ...(levels.takeProfitPrice !== undefined ? [leg('tp1', levels.takeProfitPrice)] : []),
  ];
}

/**
 * Places the entry once, with one request (the hot path of the fan-out): after a timeout or a crash
 * (attempt > 1) the order is first looked up by its client order id, so a retry never sends a second
 * order. It carries its stop (see `attachedLevels`) and is never sent past the entry's deadline, even
 * when it waits for the rate limiter. The exchange's acknowledgement opens the execution; when it
 * carries no fill (both exchanges answer only the ids) the fill is read right after by `learnEntryFill`.
 * Returns false when the execution ended without a position (skipped or failed, audited).
 */
export async function runEntry(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<boolean> {
  const { adapter, credentials, symbol } = session;
  let placed: PlacedOrder | null = ctx.attempts > 1 ? await adapter.fetchOrderByClientId(credentials, symbol, ctx.clientOrderId) : null;
  let quantity: number | null = null;
  // After a crash the levels sent are not known: attached legs are then matched by kind and size alone.
  let levels: AttachedLevels = placed ? levelsNotKnown(attachedLevels(ctx, session, placed.avgPrice ?? 1)) : {};
  if (!placed) {
    if (ctx.closeRequestedAt) {
      await markEndedWithoutPosition(rt, ctx, 'skipped', 'The order was closed before this entry was placed');
      return false;
    }
    const deadline = ctx.deadlineAt.getTime();
    if (Date.now() > deadline) throw new FinalFailure(deadlineMessage(ctx));
    // What the entry reads and sets before its order waits no longer than its deadline (an address ban included).
    const sized = await droppedAtDeadline(ctx, () => sizeFor(rt, ctx, session));
    if (sized === null) return false;
    const requested = sized.quantity;
    quantity = requested;
    const held = await droppedAtDeadline(ctx, () =>
      rt.settings.ensure({
        adapter,
        credentials: { ...credentials, deadline },
        customerId: ctx.customerId,
        platformType: ctx.platformType,
        symbol,
        wanted: { leverage: ctx.strategy.leverage, positionMode: ctx.strategy.positionMode },
        holderOf: () => symbolHolder(rt.db, ctx),
      }),
    );
    if (held) {
      await markEndedWithoutPosition(rt, ctx, 'skipped', leverageHeldMessage(symbol, held, ctx.strategy.leverage));
      return false;
    }
    // Execution quality: handed to the exchange client once the pacer lets it go, acknowledged when it answers.
    const send = (at: AttachedLevels) =>
      rt.pacer.entry(
        session.exchange,
        async () => {
          const sentAt = new Date();
          const answer = await adapter.placeEntry(credentials, { symbol, side: session.side, quantity: requested, clientOrderId: ctx.clientOrderId, positionMode: session.mode, deadlineAt: deadline, ...at });
          ctx.entryTimes = { sentAt, ackedAt: new Date() };
          return answer;
        },
        adapter.entryChannel(credentials),
        deadline,
      );
    // The levels it carries are taken from where it is expected to fill (the book's best price on its side).
    levels = attachedLevels(ctx, session, await expectedFillPrice(rt, session, sized.price, deadline));
    try {
      placed = await send(levels);
    } catch (error) {
      // Not sent because its deadline passed while it waited (for the rate limits, or the end of an address ban).
      if (isFailure(error, 'deadline') || (isFailure(error, 'rate_limit') && Date.now() >= ctx.deadlineAt.getTime())) throw new FinalFailure(deadlineMessage(ctx));
      if (!isLevelPassed(error)) throw error;
      // The market moved past the attached stop since the price the entry was sized at: levels from a fresh price.
      levels = attachedLevels(ctx, session, expectedFill(await rt.prices.quote(session.exchange, symbol, 0), session.side));
      placed = await send(levels);
    }
  }
  ctx.legs = attachedLegs(levels, adapter.sizedEntryProtection ? (quantity ?? placed.filledQty) : 0);
  ctx.stopLossPrice = levels.stopLossPrice || null;
  // The exchange acknowledged the entry (filled or not): the alert -> order latency (GET /metrics).
  engineMetrics.entryLatency.placed(ctx);
  if (isFilled(placed)) {
    await recordFill(rt, ctx, placed);
    return true;
  }
  if (placed.status !== 'unknown' && placed.status !== 'open') throw new FinalFailure(`The exchange did not fill the entry (order ${placed.status})`);
  // Acknowledged, fill not known yet: open with the quantity asked for; the fill is read right after.
  await rt.placedEntries.record(ctx, { quantity: quantity ?? placed.filledQty, exchangeOrderId: placed.exchangeOrderId, legs: ctx.legs, stopLossPrice: ctx.stopLossPrice });
  return true;
}

/**
 * Reads the fill of an acknowledged entry (pushed by the account's private stream, else one lookup by
 * client order id), before its TP/SL legs are placed. Returns false when the exchange did not fill it: the execution then ends as failed, audited.
 */
export async function learnEntryFill(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<boolean> {
  const found =
    (await session.adapter.settledOrder(session.credentials, ctx.clientOrderId, STREAM_FILL_WAIT_MS)) ??
    (await session.adapter.fetchOrderByClientId(session.credentials, session.symbol, ctx.clientOrderId));
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
  for (const leg of ctx.legs) if (leg.attached && leg.quantity > 0) leg.quantity = filled.filledQty;
  return markEntryFilled(rt, ctx, { quantity: filled.filledQty, avgPrice: filled.avgPrice, exchangeOrderId: filled.exchangeOrderId, legs: ctx.legs, stopLossPrice: ctx.stopLossPrice });
}
