import { ExitType } from '../../../contract/enums';
import type { ExecutionContext } from '../context';
import { closedOutsideMessage, liquidatedMessage } from '../exit-messages';
import { legLabel } from '../legs';
import { passed } from '../protection/levels';
import { remainingOf } from '../protection/wanted';
import type { TradingRuntime } from '../runtime';
import type { Liquidation, Position } from '../exchanges/types';
import type { SlotSibling } from '../slot';
import { traceable, unbookedFill } from './legs-state';
import { pnlOf, type Session } from './session';

const round8 = (value: number) => Number(value.toFixed(8));

/** How far before the alert a takeover is still looked for: the exchange's clock may run ahead of ours. */
const LIQUIDATION_LOOKBACK_MS = 60_000;

/**
 * What the exchange closed outside this execution's own legs: the stop attached to the entry before its
 * legs replaced it, Bybit's position trailing stop, or the customer by hand. Priced at the current
 * market price, which the sync sees moments later: an estimate, said so in the audit.
 */
export async function bookUnexplained(rt: TradingRuntime, ctx: ExecutionContext, session: Session, quantity: number): Promise<{ exitType: ExitType | null; message: string }> {
  const liquidated = await liquidationSinceAlert(ctx, session);
  if (liquidated) return bookLiquidation(ctx, session, Math.min(quantity, liquidated.quantity), liquidated.price);
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

/** Looked for only when the exchange closed something the legs do not explain (rare): one REST read. */
async function liquidationSinceAlert(ctx: ExecutionContext, session: Session): Promise<Liquidation | null> {
  const alertAt = ctx.deadlineAt.getTime() - ctx.entryWindowMs;
  return session.adapter.findLiquidation(session.credentials, session.symbol, session.side, alertAt - LIQUIDATION_LOOKBACK_MS).catch(() => null);
}

/** D7: a liquidation is booked as one, at the price the exchange took the position over. */
function bookLiquidation(ctx: ExecutionContext, session: Session, quantity: number, price: number): { exitType: null; message: string } {
  ctx.realizedPnl = round8(ctx.realizedPnl + pnlOf(session.side, ctx.entryPrice!, price, quantity));
  ctx.closedQty = round8(ctx.closedQty + quantity);
  return { exitType: null, message: liquidatedMessage(quantity, session.symbol, price) };
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
export async function unexplainedShortfall(ctx: ExecutionContext, session: Session, size: number, siblings: SlotSibling[]): Promise<number> {
  const eps = session.market.qtyStep / 2;
  const remaining = remainingOf(ctx);
  if (size <= eps) return remaining;
  if (siblings.some((sibling) => sibling.id < ctx.id)) return 0;
  const others = round8(siblings.reduce((sum, sibling) => sum + sibling.remaining, 0) - (await siblingsUnbooked(session, siblings)));
  return Math.min(remaining, Math.max(0, round8(remaining - (size - others))));
}

/**
 * The size (0 when flat) and mark price of this execution's side of the position, read from the exchange.
 * A stream can lag (events delayed, a socket that went quiet): a size below `expected` is what books a
 * close, so it is confirmed over REST before anything is booked on it.
 */
export async function readPosition(session: Session, expected: number): Promise<{ size: number; markPrice: number | undefined }> {
  const { adapter, credentials, symbol, side } = session;
  const sideOf = (positions: Position[]) => positions.find((p) => p.symbol === symbol && p.side === side);
  let position = sideOf(await adapter.fetchPositions(credentials, [symbol]));
  const short = (position?.size ?? 0) < expected - session.market.qtyStep / 2;
  if (short && adapter.readsFromStream(credentials)) position = sideOf(await adapter.readPositions(credentials, [symbol]));
  return { size: position?.size ?? 0, markPrice: position?.markPrice };
}
