import { EntryDirection, ExitType, StrategyStatus, exchangeSlugs, type Exchange } from '../../contract/enums';
import type { Db } from '../db/client';
import type { Deps } from '../deps';
import type { ManualClock } from '../lib/clock';
import { parseAlert } from '../modules/webhooks/parse';
import { receiveAlert } from '../modules/webhooks/service';
import { Random } from '../sandbox/random';
import { loadTradingConfig } from '../trading/config';
import { loadContexts, type ExecutionContext } from '../trading/context';
import { openManualOrder } from '../trading/engine';
import type { ExchangeId } from '../trading/exchanges/types';
import { markEndedWithoutPosition, markEntryFilled } from '../trading/execution-state/entry';
import { markCloseAbandoned, markClosed, markLegsFilled, markProtected } from '../trading/execution-state/position';
import { claimExecutions, type JobKind } from '../trading/execution-state/queue';
import type { StateWriter } from '../trading/execution-state/writer';
import { closedAtMarketMessage, closedOutsideMessage, legClosedMessage, legFilledMessage, withRealizedPnl } from '../trading/exit-messages';
import { executionClientOrderId } from '../trading/ids';
import { isTakeProfit, type ExecutionLeg } from '../trading/legs';
import { stopLossPrice, takeProfitPrices, takeProfitSizes, tickOnLossSide } from '../trading/protection/levels';
import { remainingOf } from '../trading/protection/wanted';
import { roundToStep, sizeEntry } from '../trading/sizing';
import { pnlOf, type PositionTerms } from '../trading/steps/session';
import { closeFailureText, entryFailureText } from './failures';
import type { DemoTrade } from './history-plan';
import { demoMarket, type DemoPrices } from './market';

/** The demo seeding holds the claims of the executions it replays, as a dispatcher would. */
const DEMO_WORKER = 'demo-seed';
const LEASE_MS = 10 * 60 * 1000;
/** An address TradingView sends its alerts from. */
const TRADINGVIEW_IP = '52.89.214.238';
const ENTRY_FAILURE_CHANCE = 0.05;
const CUSTOMER_CLOSE_CHANCE = 0.04;
const CLOSE_FAILURE_CHANCE = 0.08;
/** POSITION_SYNC_INTERVAL_MS's default: when the sync looks again after a close was given up. */
const SYNC_AFTER_MS = 15_000;

const round8 = (value: number) => Number(value.toFixed(8));

type Writer = StateWriter & { db: Db };

interface Position {
  ctx: ExecutionContext;
  terms: PositionTerms;
  exchange: ExchangeId;
}

/** What happens to one customer's execution, drawn before any of it is written (so the draws do not depend on timing). */
interface Fate {
  entryFailure: boolean;
  /** Which refusal (0 to 1). */
  refusal: number;
  slippage: number;
  exchangeOrderId: (exchange: ExchangeId) => string;
  /** Share of the holding time after which the customer closes by hand, if they do. */
  customerCloseAfter: number | null;
  closeFailure: boolean;
  closeSlippage: number;
}

/**
 * Executions of one Order written side by side, as several dispatcher workers would. Every instant is
 * drawn beforehand, and the executions of one phase end at the same instant (entries answered, last
 * exits), so the data set does not depend on which lane writes first; only the ids of rows written at
 * one instant may come in another order.
 */
const PARALLEL_WRITES = 4;
/** When the exchange answered an entry (refused, filled) or the sizing skipped it. */
const ENTRY_ANSWER_MS = 1_200;

/**
 * Replays one demo Order through the functions the engine and the routes write with: the alert (or
 * the manual order), then each customer's execution claimed and moved through its transitions (entry
 * refused or skipped, or filled, protected, TP legs filled, stop moved, closed), each at its own
 * backdated instant. The exchange itself is not called: prices come from the demo's price path.
 */
export async function replayTrade(deps: Deps, clock: ManualClock, prices: DemoPrices, trade: DemoTrade): Promise<void> {
  const random = new Random(trade.seed);
  const { strategy } = trade;
  const price = prices.at(strategy.symbol, trade.at);
  const writer = (ms: number): Writer => ({ db: deps.db, worker: DEMO_WORKER, at: new Date(trade.at.getTime() + ms) });

  clock.set(trade.at);
  if (strategy.via === 'webhook') await sendAlert(deps, trade, { action: 'open', ticker: `${strategy.symbol}.P`, price, alert_id: `${strategy.id}-${trade.at.getTime()}` });
  else await openManualOrder(deps, { strategyId: strategy.id, side: strategy.direction, at: trade.at });

  const contexts = (await claim(deps, 'work')).sort((a, b) => a.id - b.id);
  const fates = new Map(contexts.map((ctx) => [ctx.id, drawFate(random)]));
  const entered = await inParallel(contexts, (ctx) => enter(ctx, fates.get(ctx.id)!, price, writer));
  const positions = entered.filter((position): position is Position => position !== null);
  const closing = positions.filter((position) => fates.get(position.ctx.id)!.customerCloseAfter === null && trade.outcome === 'closeSignal');
  // Customers closing by hand (a few) come first, one after the other in time: the Order settles at its last exit.
  const closeAfter = (position: Position) => fates.get(position.ctx.id)!.customerCloseAfter;
  const byHand = positions.filter((position) => closeAfter(position) !== null).sort((a, b) => closeAfter(a)! - closeAfter(b)!);
  for (const position of byHand) {
    const ms = trade.holdMs * closeAfter(position)!;
    await closeOutside(writer(ms), position, prices.at(strategy.symbol, new Date(trade.at.getTime() + ms)));
  }
  if (trade.outcome !== 'closeSignal') {
    await inParallel(positions.filter((position) => closeAfter(position) === null), (position) => runToExit(position, trade, writer));
  }
  if (closing.length > 0) await closeBySignal(deps, clock, trade, closing, fates, writer);
}

function drawFate(random: Random): Fate {
  const entryFailure = random.next() < ENTRY_FAILURE_CHANCE;
  const refusal = random.next();
  const slippage = (random.next() - 0.5) * 0.0006;
  const idSeed = Math.floor(random.next() * 2 ** 31);
  const customerCloses = random.next() < CUSTOMER_CLOSE_CHANCE;
  const customerCloseAfter = random.uniform(0.1, 0.9);
  return {
    entryFailure,
    refusal,
    slippage,
    exchangeOrderId: (exchange) => exchangeOrderId(exchange, new Random(idSeed)),
    customerCloseAfter: customerCloses ? customerCloseAfter : null,
    closeFailure: random.next() < CLOSE_FAILURE_CHANCE,
    closeSlippage: (random.next() - 0.5) * 0.0006,
  };
}

async function inParallel<T, R>(items: T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_WRITES, items.length) }, lane));
  return results;
}

/** The entry refused, skipped by sizing, or filled and protected. */
async function enter(ctx: ExecutionContext, fate: Fate, price: number, writer: (ms: number) => Writer): Promise<Position | null> {
  const exchange = exchangeSlugs[ctx.platformType as Exchange] as ExchangeId;
  if (fate.entryFailure) {
    await markEndedWithoutPosition(writer(ENTRY_ANSWER_MS), ctx, 'failed', entryFailureText(exchange, fate.refusal));
    return null;
  }
  const market = demoMarket(ctx.strategy.symbol);
  const sized = sizeEntry({ investType: ctx.investType ?? 0, investAmount: ctx.investAmount ?? 0, leverage: ctx.strategy.leverage, price, market });
  if (!sized.ok) {
    await markEndedWithoutPosition(writer(ENTRY_ANSWER_MS), ctx, 'skipped', sized.reason);
    return null;
  }
  const terms: PositionTerms = { side: ctx.side === EntryDirection.Long ? 'long' : 'short', market };
  const avgPrice = roundToStep(price * (1 + fate.slippage), market.tickSize);
  await markEntryFilled(writer(ENTRY_ANSWER_MS), ctx, { quantity: sized.quantity, exchangeOrderId: fate.exchangeOrderId(exchange), legs: [], stopLossPrice: null, avgPrice });
  const stop = stopLossPrice(ctx, terms, avgPrice);
  await markProtected(writer(3_500), ctx, { legs: protectionLegs(ctx, terms, stop), stopLossPrice: stop });
  return { ctx, terms, exchange };
}

async function sendAlert(deps: Deps, trade: DemoTrade, alert: Record<string, unknown>): Promise<void> {
  const body = JSON.stringify(alert);
  const parsed = parseAlert(body, trade.strategy.direction);
  if (!parsed.ok) throw new Error(`The demo alert was refused: ${parsed.reason}`);
  const strategy = { id: trade.strategy.id, symbol: trade.strategy.symbol, entryDirection: trade.strategy.direction, status: StrategyStatus.Active };
  await receiveAlert(deps, loadTradingConfig(deps.config.exchangeMode), { strategy, alert: parsed.alert, body, sourceIp: TRADINGVIEW_IP, backdated: true });
}

async function claim(deps: Deps, kind: JobKind): Promise<ExecutionContext[]> {
  const ids = await claimExecutions(deps.db, { worker: DEMO_WORKER, limit: 10_000, leaseMs: LEASE_MS, kind });
  return loadContexts(deps.db, DEMO_WORKER, ids);
}

function exchangeOrderId(exchange: ExchangeId, random: Random): string {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random.next() * 10)).join('');
  if (exchange === 'bitget') return `1${digits(18)}`;
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random.next() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
}

/** The stop and the take-profit legs as the engine places them after the fill (round 0). */
function protectionLegs(ctx: ExecutionContext, terms: PositionTerms, stop: number): ExecutionLeg[] {
  const leg = (kind: ExecutionLeg['kind'], quantity: number, price: number): ExecutionLeg => ({
    kind,
    clientOrderId: executionClientOrderId(ctx.orderId, ctx.customerId, kind),
    quantity,
    price,
    filledQty: 0,
    avgPrice: null,
    status: 'open',
    round: 0,
  });
  const sizes = takeProfitSizes(ctx, terms, ctx.quantity!);
  const levels = takeProfitPrices(ctx, terms, ctx.entryPrice!);
  const kinds = ['tp1', 'tp2', 'tp3'] as const;
  return [leg('sl', ctx.quantity!, stop), ...kinds.flatMap((kind, i) => (sizes[i]! > 0 ? [leg(kind, sizes[i]!, levels[i]!)] : []))];
}

/** Books a fill of `quantity` at `price` on the position (and on `leg` when a leg filled). */
function book(position: Position, quantity: number, price: number, leg?: ExecutionLeg): void {
  const { ctx } = position;
  if (leg) Object.assign(leg, { filledQty: quantity, avgPrice: price, status: 'filled' });
  ctx.closedQty = round8(ctx.closedQty + quantity);
  ctx.realizedPnl = round8(ctx.realizedPnl + pnlOf(position.terms.side, ctx.entryPrice!, price, quantity));
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
async function runToExit(position: Position, trade: DemoTrade, writer: (ms: number) => Writer): Promise<void> {
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
      await markClosed(writer(at), ctx, { exitType: null, message: withRealizedPnl(legClosedMessage(leg.kind, leg.price, quantity, symbol, leg.price), ctx.realizedPnl) });
      return;
    }
    await markLegsFilled(writer(at), ctx, [{ exitType: null, message: legFilledMessage(leg.kind, quantity, symbol, leg.price) }]);
    if (leg.kind === 'tp1') moveStopToEntry(position);
  }
  const stop = openLeg(ctx, 'sl')!;
  const quantity = remainingOf(ctx);
  book(position, quantity, stop.price, stop);
  cancelOpenLegs(ctx);
  await markClosed(writer(trade.holdMs), ctx, { exitType: null, message: withRealizedPnl(legClosedMessage('sl', stop.price, quantity, symbol, stop.price), ctx.realizedPnl) });
}

/** The customer closed the position on the exchange; the sync books it at about the market price. */
async function closeOutside(w: Writer, position: Position, price: number): Promise<void> {
  const quantity = remainingOf(position.ctx);
  book(position, quantity, price);
  cancelOpenLegs(position.ctx);
  await markClosed(w, position.ctx, { exitType: ExitType.Customer, message: withRealizedPnl(closedOutsideMessage(quantity, position.ctx.strategy.symbol, price), position.ctx.realizedPnl) });
}

/**
 * A close alert at the end of the holding time: every position is closed at market; a few closes keep
 * failing on the exchange's side until the engine gives up, and those customers close by hand later.
 */
async function closeBySignal(deps: Deps, clock: ManualClock, trade: DemoTrade, positions: Position[], fates: Map<number, Fate>, writer: (ms: number) => Writer): Promise<void> {
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
    const fate = fates.get(ctx.id)!;
    ctx.exitType = null;
    if (fate.closeFailure) {
      await markCloseAbandoned(writer(trade.holdMs + 40_000), ctx, closeFailureText(position.exchange), SYNC_AFTER_MS);
      return;
    }
    const price = closePrice(move, fate.closeSlippage);
    const quantity = remainingOf(ctx);
    book(position, quantity, price);
    cancelOpenLegs(ctx);
    await markClosed(writer(trade.holdMs + 2_000), ctx, { exitType: null, message: withRealizedPnl(closedAtMarketMessage(null, `${quantity} ${strategy.symbol} at ${price}`), ctx.realizedPnl) });
  });
  const abandoned = positions.filter((position) => fates.get(position.ctx.id)!.closeFailure);
  if (abandoned.length === 0) return;
  const reclaimed = new Map((await claim(deps, 'sync')).map((ctx) => [ctx.id, ctx]));
  for (const position of abandoned) {
    const ctx = reclaimed.get(position.ctx.id);
    if (!ctx) throw new Error(`Execution ${position.ctx.id} was not due for its sync after the close was given up`);
    await closeOutside(writer(laterMs), { ...position, ctx }, closePrice(move * 0.8, 0));
  }
}
