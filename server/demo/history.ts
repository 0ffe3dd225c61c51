import { EntryDirection, exchangeSlugs, type Exchange } from '../../contract/enums';
import type { Deps } from '../deps';
import type { ManualClock } from '../lib/clock';
import { Random } from '../sandbox/random';
import type { ExecutionContext } from '../trading/context';
import { openManualOrder } from '../trading/intake';
import type { ExchangeId } from '../trading/exchanges/types';
import { markEndedWithoutPosition, markEntryFilled } from '../trading/execution-state/entry';
import { markProtected } from '../trading/execution-state/position';
import { executionClientOrderId } from '../trading/ids';
import type { ExecutionLeg } from '../trading/legs';
import { stopLossPrice, takeProfitPrices, takeProfitSizes } from '../trading/protection/levels';
import { roundToStep, sizeEntry } from '../trading/sizing';
import type { PositionTerms } from '../trading/steps/session';
import { entryFailureText } from './failures';
import { closeBySignal, closeOutside, runToExit, type CloseFate } from './history-exits';
import type { DemoTrade } from './history-plan';
import { demoMarket, type DemoPrices } from './market';
import { claim, inParallel, sendAlert, writerFor, type Position, type WriterAt } from './replay';

const ENTRY_FAILURE_CHANCE = 0.05;
const CUSTOMER_CLOSE_CHANCE = 0.04;
const CLOSE_FAILURE_CHANCE = 0.08;

/** What happens to one customer's execution, drawn before any of it is written (so the draws do not depend on timing). */
interface Fate extends CloseFate {
  entryFailure: boolean;
  /** Which refusal (0 to 1). */
  refusal: number;
  slippage: number;
  exchangeOrderId: (exchange: ExchangeId) => string;
  /** Seeds the entry's sent and acknowledged times (execution quality). */
  latencySeed: number;
  /** Share of the holding time after which the customer closes by hand, if they do. */
  customerCloseAfter: number | null;
}

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
  const writer = writerFor(deps, trade);

  clock.set(trade.at);
  if (strategy.via === 'webhook') await sendAlert(deps, trade, { action: 'open', ticker: `${strategy.symbol}.P`, price, alert_id: `${strategy.id}-${trade.at.getTime()}` });
  else await openManualOrder(deps, { strategyId: strategy.id, side: strategy.direction, at: trade.at });

  const contexts = await claim(deps, 'work');
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
  if (closing.length > 0) await closeBySignal(deps, clock, trade, closing, (id) => fates.get(id)!, writer);
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
    latencySeed: idSeed + 1,
    customerCloseAfter: customerCloses ? customerCloseAfter : null,
    closeFailure: random.next() < CLOSE_FAILURE_CHANCE,
    closeSlippage: (random.next() - 0.5) * 0.0006,
  };
}

/** The entry refused, skipped by sizing, or filled and protected. */
async function enter(ctx: ExecutionContext, fate: Fate, price: number, writer: WriterAt): Promise<Position | null> {
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
  // Execution quality: sent and acknowledged within the answer's time, drawn apart from the fate (its draws stay as they were).
  const latency = new Random(fate.latencySeed);
  const sentMs = latency.uniform(30, 400);
  ctx.entryTimes = { sentAt: writer(sentMs).at!, ackedAt: writer(sentMs + latency.uniform(15, 250)).at! };
  await markEntryFilled(writer(ENTRY_ANSWER_MS), ctx, { quantity: sized.quantity, exchangeOrderId: fate.exchangeOrderId(exchange), legs: [], stopLossPrice: null, avgPrice });
  const stop = stopLossPrice(ctx, terms, avgPrice);
  await markProtected(writer(3_500), ctx, { legs: protectionLegs(ctx, terms, stop), stopLossPrice: stop });
  return { ctx, terms, exchange };
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
