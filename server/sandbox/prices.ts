import { findMarket, markets, roundToStep, type MarketSpec } from './markets';
import { deriveSeed, Random } from './random';

/**
 * The three prices an exchange keeps per symbol: the last traded price (trades, the book), the index price
 * (spot exchanges' average) and the mark price derived from the index, which moves more smoothly than the
 * last price. Bybit triggers on the one `triggerBy` names (LastPrice default), Bitget on `triggerType`
 * (fill_price = last, mark_price = mark); both liquidate and value positions on the mark price.
 */
export interface Quote {
  last: number;
  mark: number;
  index: number;
}

export type PriceKind = keyof Quote;

export type PriceListener = (symbol: string, quote: Quote) => void;

/** How far the index (and the mark with it) moves toward the last price on each random-walk step. */
const INDEX_SMOOTHING = 0.5;

/**
 * Prices of every market. A seeded random walk moves the last price (one timer per symbol, stoppable) and the
 * index and mark prices follow it halfway each step; tests set them directly, together (`set`) or apart
 * (`setQuote`). Every change is reported to the listener, which triggers orders and liquidations.
 */
export class PriceFeed {
  private readonly quotes = new Map<string, Quote>();
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
      const start = market.startPrice;
      this.quotes.set(market.symbol, { last: start, mark: start, index: start });
      this.walkers.set(market.symbol, new Random(deriveSeed(this.seed, market.symbol)));
    }
  }

  quote(symbol: string): Quote {
    const quote = this.quotes.get(symbol);
    if (quote === undefined) throw new Error(`Unknown symbol ${symbol}`);
    return quote;
  }

  /** The last traded price. */
  get(symbol: string): number {
    return this.quote(symbol).last;
  }

  last(symbol: string): number {
    return this.quote(symbol).last;
  }

  mark(symbol: string): number {
    return this.quote(symbol).mark;
  }

  of(symbol: string, kind: PriceKind): number {
    return this.quote(symbol)[kind];
  }

  /** Last prices of every symbol. */
  all(): Record<string, number> {
    return Object.fromEntries([...this.quotes].map(([symbol, quote]) => [symbol, quote.last]));
  }

  allQuotes(): Record<string, Quote> {
    return Object.fromEntries([...this.quotes].map(([symbol, quote]) => [symbol, { ...quote }]));
  }

  /** "The price": last, mark and index together (what every test that sets one price means). */
  set(symbol: string, price: number): void {
    this.setQuote(symbol, { last: price, mark: price, index: price });
  }

  /** Sets any of the three prices, each rounded to the tick; the others stay. */
  setQuote(symbol: string, update: Partial<Quote>): void {
    const market = findMarket(symbol);
    if (!market) throw new Error(`Unknown symbol ${symbol}`);
    const next = { ...this.quote(symbol) };
    for (const kind of ['last', 'mark', 'index'] as const) {
      const price = update[kind];
      if (price === undefined) continue;
      if (!(price > 0) || !Number.isFinite(price)) throw new Error(`${kind} price must be a positive number`);
      next[kind] = onTick(market, price);
    }
    this.quotes.set(symbol, next);
    this.listener(symbol, next);
  }

  /** One random-walk step for a symbol: a log-normal move of the last price; index and mark follow it halfway. */
  step(symbol: string): number {
    const market = findMarket(symbol);
    const walker = this.walkers.get(symbol);
    if (!market || !walker) throw new Error(`Unknown symbol ${symbol}`);
    const current = this.quote(symbol);
    const last = current.last * Math.exp(market.volatility * walker.gaussian());
    const index = current.index + (last - current.index) * INDEX_SMOOTHING;
    this.setQuote(symbol, { last, index, mark: index });
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

function onTick(market: MarketSpec, price: number): number {
  return Math.max(roundToStep(price, market.tickSize), market.tickSize);
}
