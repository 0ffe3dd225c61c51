import { defaultBook, OrderBook, type BookConfig } from './book';
import { findMarket, markets } from './markets';
import type { ExchangeId } from './types';

/** Book settings for a whole sandbox, with per-symbol overrides (start option `book`, control `PUT /control/book`). */
export interface BookOptions extends Partial<BookConfig> {
  symbols?: Record<string, Partial<BookConfig>>;
}

function checked(config: BookConfig): BookConfig {
  if (!Number.isInteger(config.levels) || config.levels < 1 || config.levels > 100) throw new Error('book levels must be an integer from 1 to 100');
  if (!(config.levelNotional > 0)) throw new Error('book levelNotional must be positive');
  if (config.levelSize !== undefined && !(config.levelSize > 0)) throw new Error('book levelSize must be positive');
  if (!(config.spread >= 0 && config.spread < 0.1) || !(config.step >= 0 && config.step < 0.1)) throw new Error('book spread and step must be fractions from 0 to 0.1');
  if (!(config.refillMs >= 0)) throw new Error('book refillMs must be 0 or more');
  return config;
}

function merge<T extends Partial<BookConfig>>(current: T, update: Partial<BookConfig>): T {
  const merged = { ...current, ...update };
  if (update.levelNotional !== undefined && update.levelSize === undefined) delete merged.levelSize;
  return merged;
}

/** One order book per exchange and symbol (Bybit and Bitget are separate venues sharing the mark price). */
export class Books {
  private base: BookConfig = defaultBook;
  private readonly overrides = new Map<string, Partial<BookConfig>>();
  private readonly books = new Map<string, OrderBook>();

  constructor(
    private readonly now: () => number,
    private readonly startOptions: BookOptions = {},
  ) {
    this.reset();
  }

  /** Back to the start options, every level full. */
  reset(): void {
    const { symbols, ...base } = this.startOptions;
    this.overrides.clear();
    this.base = checked({ ...defaultBook, ...base });
    for (const [symbol, config] of Object.entries(symbols ?? {})) this.set(config, symbol);
    this.books.clear();
  }

  /**
   * Changes the book of one symbol (or the default of all symbols); the changed books start full. A
   * levelNotional given without levelSize drops an earlier levelSize (which would otherwise win).
   */
  set(update: Partial<BookConfig>, symbol?: string): void {
    if (symbol === undefined) {
      this.base = checked(merge(this.base, update));
      this.books.clear();
      return;
    }
    if (!findMarket(symbol)) throw new Error(`Unknown symbol ${symbol}`);
    const merged = merge(this.overrides.get(symbol) ?? {}, update);
    checked({ ...this.base, ...merged });
    this.overrides.set(symbol, merged);
    for (const exchange of ['bybit', 'bitget'] as const) this.books.delete(`${exchange}:${symbol}`);
  }

  config(symbol: string): BookConfig {
    return { ...this.base, ...this.overrides.get(symbol) };
  }

  all(): Record<string, BookConfig> {
    return Object.fromEntries(markets.map((market) => [market.symbol, this.config(market.symbol)]));
  }

  get(exchange: ExchangeId, symbol: string): OrderBook {
    const key = `${exchange}:${symbol}`;
    let book = this.books.get(key);
    if (!book) {
      const market = findMarket(symbol);
      if (!market) throw new Error(`Unknown symbol ${symbol}`);
      book = new OrderBook(market, this.config(symbol), this.now);
      this.books.set(key, book);
    }
    return book;
  }
}
