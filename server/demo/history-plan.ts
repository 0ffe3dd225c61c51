import { DAY_MS } from '../lib/clock';
import { Random } from '../sandbox/random';
import { demoStrategies, type DemoStrategy } from './strategies';

const HOUR_MS = 60 * 60 * 1000;

/** How an Order's positions ended, the market being the same for every customer of it. */
export type TradeOutcome = 'allTakeProfits' | 'takeProfitThenStop' | 'stopLoss' | 'closeSignal';

export interface DemoTrade {
  at: Date;
  strategy: DemoStrategy;
  outcome: TradeOutcome;
  /** The market moved the strategy's way (decides a close signal's price). */
  win: boolean;
  /** From the entry to the exit that ends the trade. */
  holdMs: number;
  /** Seed of the per-customer draws of this trade (failures, manual closes, slippage). */
  seed: number;
}

/**
 * Every demo Order from `from` to `to`, oldest first: each strategy trades about every `everyDays`.
 * Each month has a mood (its chance of a winning trade, 30% to 80%), so some months lose money.
 */
export function planTrades(from: Date, to: Date, seed: number): DemoTrade[] {
  const random = new Random(seed);
  const moods = new Map<string, number>();
  const winChance = (at: Date) => {
    const month = at.toISOString().slice(0, 7);
    if (!moods.has(month)) moods.set(month, 0.3 + 0.5 * random.next());
    return moods.get(month)!;
  };
  const trades: DemoTrade[] = [];
  for (const strategy of demoStrategies) {
    let at = from.getTime() + random.uniform(0, strategy.everyDays) * DAY_MS;
    while (at < to.getTime()) {
      const when = new Date(Math.floor(at / 1000) * 1000);
      const win = random.next() < winChance(when);
      trades.push({ at: when, strategy, outcome: outcomeOf(strategy, win, random), win, holdMs: random.uniform(2 * HOUR_MS, 3 * DAY_MS), seed: Math.floor(random.next() * 2 ** 31) });
      at += random.uniform(0.4, 1.6) * strategy.everyDays * DAY_MS;
    }
  }
  return trades.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** Close signals only come by webhook; a win reaches every TP or some, a loss hits the stop. */
function outcomeOf(strategy: DemoStrategy, win: boolean, random: Random): TradeOutcome {
  if (strategy.via === 'webhook' && random.next() < 0.25) return 'closeSignal';
  if (!win) return 'stopLoss';
  return random.next() < 0.6 ? 'allTakeProfits' : 'takeProfitThenStop';
}
