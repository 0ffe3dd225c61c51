import { ExitType } from '../../contract/enums';
import type { Deps } from '../deps';
import type { ManualClock } from '../lib/clock';
import { Random } from '../sandbox/random';
import type { ExecutionContext } from '../trading/context';
import { markCloseAbandoned, markClosed, markLegsFilled } from '../trading/execution-state/position';
import { closedAtMarketMessage, closedOutsideMessage, legClosedMessage, legFilledMessage, withRealizedPnl } from '../trading/exit-messages';
import { executionClientOrderId } from '../trading/ids';
import { isTakeProfit, type ExecutionLeg } from '../trading/legs';
import { tickOnLossSide } from '../trading/protection/levels';
import { remainingOf } from '../trading/protection/wanted';
import { roundToStep } from '../trading/sizing';
import { pnlOf } from '../trading/steps/session';
import { closeFailureText } from './failures';
import type { DemoTrade } from './history-plan';
import { claim, inParallel, sendAlert, type Position, type Writer, type WriterAt } from './replay';

/**
 * How the demo's positions end, booked as the engine's sync and close steps book them: take-profit
 * legs, the stop (moved to entry after TP1), a close signal, or the customer closing by hand.
 */

/** POSITION_SYNC_INTERVAL_MS's default: when the sync looks again after a close was given up. */
const SYNC_AFTER_MS = 15_000;

const round8 = (value: number) => Number(value.toFixed(8));

/** What happens to one execution when a close signal comes, drawn beforehand. */
export interface CloseFate {
  closeFailure: boolean;
  closeSlippage: number;
}

/** The exchanges' published taker fee rates (VIP 0), which every demo fill pays. */
const TAKER_FEE_RATE: Record<Position['exchange'], number> = { bybit: 0.00055, bitget: 0.0006 };

/** Exit fees of each position so far (the entry's are counted at the close). */
const exitFees = new WeakMap<ExecutionContext, number>();

/** Books a fill of `quantity` at `price` on the position (and on `leg` when a leg filled). */
function book(position: Position, quantity: number, price: number, leg?: ExecutionLeg): void {
  const { ctx } = position;
  if (leg) Object.assign(leg, { filledQty: quantity, avgPrice: price, status: 'filled' });
  ctx.closedQty = round8(ctx.closedQty + quantity);
  ctx.realizedPnl = round8(ctx.realizedPnl + pnlOf(position.terms.side, ctx.entryPrice!, price, quantity));
  exitFees.set(ctx, (exitFees.get(ctx) ?? 0) + quantity * price * TAKER_FEE_RATE[position.exchange]);
}

/** The close as the engine books it: realized PnL net of the entry's and the exits' fees (no funding in the demo). */
async function close(w: Writer, position: Position, exitType: ExitType | null, how: string): Promise<void> {
  const { ctx } = position;
  const fees = round8((exitFees.get(ctx) ?? 0) + ctx.quantity! * ctx.entryPrice! * TAKER_FEE_RATE[position.exchange]);
  ctx.realizedPnl = round8(ctx.realizedPnl - fees);
  await markClosed(w, ctx, { exitType, message: withRealizedPnl(how, ctx.realizedPnl, { fees, funding: 0 }) });
}

function cancelOpenLegs(ctx: ExecutionContext): void {
  for (const leg of ctx.legs) if (leg.status === 'open') leg.status = 'canceled';
}

const openLeg = (ctx: ExecutionContext, kind: ExecutionLeg['kind']) => ctx.legs.find((leg) => leg.kind === kind && leg.status === 'open');

/** After TP1 with advanceStopLoss on, the engine replaces the stop by one at the entry price (round 1). */
function moveStopToEntry(position: Position): void {
  const { ctx } = position;
  const previous = openLeg(ctx, 'sl');
  if (!ctx.strategy.advanceStopLoss || !previous) return;
  previous.status = 'canceled';
  const price = tickOnLossSide(position.terms, ctx.entryPrice!);
  ctx.legs.push({ ...previous, clientOrderId: executionClientOrderId(ctx.orderId, ctx.customerId, 'sl', 1), quantity: remainingOf(ctx), price, target: ctx.entryPrice!, status: 'open', round: 1 });
  ctx.stopLossPrice = price;
  ctx.stopMovedToEntry = true;
}

/** Take profits (all of them, or TP1 then the stop) or the stop, over the trade's holding time, as the sync books them. */
export async function runToExit(position: Position, trade: DemoTrade, writer: WriterAt): Promise<void> {
  const { ctx } = position;
  const symbol = ctx.strategy.symbol;
  const takeProfits = ctx.legs.filter((leg) => isTakeProfit(leg.kind));
  const taking = trade.outcome === 'allTakeProfits' ? takeProfits : trade.outcome === 'takeProfitThenStop' ? takeProfits.slice(0, 1) : [];
  const steps = taking.length + (trade.outcome === 'allTakeProfits' ? 0 : 1);
  for (const [i, leg] of taking.entries()) {
    const at = ((i + 1) / steps) * trade.holdMs;
    const last = trade.outcome === 'allTakeProfits' && i === taking.length - 1;
    const quantity = last ? remainingOf(ctx) : leg.quantity;
    book(position, quantity, leg.price, leg);
    if (last) {
      cancelOpenLegs(ctx);
      await close(writer(at), position, null, legClosedMessage(leg.kind, leg.price, quantity, symbol, leg.price));
      return;
    }
    await markLegsFilled(writer(at), ctx, [{ exitType: null, message: legFilledMessage(leg.kind, quantity, symbol, leg.price) }]);
    if (leg.kind === 'tp1') moveStopToEntry(position);
  }
  const stop = openLeg(ctx, 'sl')!;
  const quantity = remainingOf(ctx);
  book(position, quantity, stop.price, stop);
  cancelOpenLegs(ctx);
  await close(writer(trade.holdMs), position, null, legClosedMessage('sl', stop.price, quantity, symbol, stop.price));
}

/** The customer closed the position on the exchange; the sync books it at about the market price. */
export async function closeOutside(w: Writer, position: Position, price: number): Promise<void> {
  const quantity = remainingOf(position.ctx);
  book(position, quantity, price);
  cancelOpenLegs(position.ctx);
  await close(w, position, ExitType.Customer, closedOutsideMessage(quantity, position.ctx.strategy.symbol, price));
}

/**
 * A close alert at the end of the holding time: every position is closed at market; a few closes keep
 * failing on the exchange's side until the engine gives up, and those customers close by hand later.
 */
export async function closeBySignal(
  deps: Deps,
  clock: ManualClock,
  trade: DemoTrade,
  positions: Position[],
  fateOf: (executionId: number) => CloseFate,
  writer: WriterAt,
): Promise<void> {
  const { strategy } = trade;
  const random = new Random(trade.seed + 1);
  const at = new Date(trade.at.getTime() + trade.holdMs);
  const first = positions[0]!;
  const direction = first.terms.side === 'long' ? 1 : -1;
  const closePrice = (share: number, slippage: number) =>
    roundToStep(first.ctx.entryPrice! * (1 + direction * (trade.win ? 1 : -1) * share + slippage), first.terms.market.tickSize);
  const move = random.uniform(0.004, 0.03);
  const laterMs = trade.holdMs + random.uniform(10, 90) * 60_000;
  clock.set(at);
  await sendAlert(deps, trade, { action: 'close', ticker: `${strategy.symbol}.P`, alert_id: `${strategy.id}-${at.getTime()}` });
  await inParallel(positions, async (position) => {
    const { ctx } = position;
    const fate = fateOf(ctx.id);
    ctx.exitType = null;
    if (fate.closeFailure) {
      await markCloseAbandoned(writer(trade.holdMs + 40_000), ctx, closeFailureText(position.exchange), SYNC_AFTER_MS);
      return;
    }
    const price = closePrice(move, fate.closeSlippage);
    const quantity = remainingOf(ctx);
    book(position, quantity, price);
    cancelOpenLegs(ctx);
    await close(writer(trade.holdMs + 2_000), position, null, closedAtMarketMessage(null, `${quantity} ${strategy.symbol} at ${price}`));
  });
  const abandoned = positions.filter((position) => fateOf(position.ctx.id).closeFailure);
  if (abandoned.length === 0) return;
  const reclaimed = new Map((await claim(deps, 'sync')).map((ctx) => [ctx.id, ctx]));
  for (const position of abandoned) {
    const ctx = reclaimed.get(position.ctx.id);
    if (!ctx) throw new Error(`Execution ${position.ctx.id} was not due for its sync after the close was given up`);
    await closeOutside(writer(laterMs), { ...position, ctx }, closePrice(move * 0.8, 0));
  }
}
