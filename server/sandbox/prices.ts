import { findMarket, markets, roundToStep } from './markets';
import { deriveSeed, Random } from './random';

export type PriceListener = (symbol: string, price: number) => void;

/**
 * Mark prices of every market. A seeded random walk moves them (one timer per symbol, stoppable);
 * tests set them directly. Every change is reported to the listener, which triggers orders.
 */
export class PriceFeed {
  private readonly prices = new Map<string, number>();
  private readonly walkers = new Map<string, Random>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly seed: number,
    private readonly listener: PriceListener,
  ) {
    this.reset();
  }

  reset(): void {
    for (const market of markets) {
      this.prices.set(market.symbol, market.startPrice);
      this.walkers.set(market.symbol, new Random(deriveSeed(this.seed, market.symbol)));
    }
  }

  get(symbol: string): number {
    const price = this.prices.get(symbol);
    if (price === undefined) throw new Error(`Unknown symbol ${symbol}`);
    return price;
  }

  all(): Record<string, number> {
    return Object.fromEntries(this.prices);
  }

  set(symbol: string, price: number): void {
    const market = findMarket(symbol);
    if (!market) throw new Error(`Unknown symbol ${symbol}`);
    if (!(price > 0)) throw new Error('price must be a positive number');
    const rounded = Math.max(roundToStep(price, market.tickSize), market.tickSize);
    this.prices.set(symbol, rounded);
    this.listener(symbol, rounded);
  }

  /** One random-walk step for a symbol (log-normal move of the market's volatility). */
  step(symbol: string): number {
    const market = findMarket(symbol);
    const walker = this.walkers.get(symbol);
    if (!market || !walker) throw new Error(`Unknown symbol ${symbol}`);
    const next = this.get(symbol) * Math.exp(market.volatility * walker.gaussian());
    this.set(symbol, next);
    return this.get(symbol);
  }

  startWalk(symbols: readonly string[] = markets.map((m) => m.symbol), intervalMs = 1000): void {
    for (const symbol of symbols) {
      this.stopWalk([symbol]);
      const timer = setInterval(() => this.step(symbol), intervalMs);
      timer.unref();
      this.timers.set(symbol, timer);
    }
  }

  stopWalk(symbols: readonly string[] = [...this.timers.keys()]): void {
    for (const symbol of symbols) {
      clearInterval(this.timers.get(symbol));
      this.timers.delete(symbol);
    }
  }

  walking(): string[] {
    return [...this.timers.keys()];
  }
}
