import { byDeadline } from './exchanges/by-deadline';
import { sharedExchangeLimiter } from './exchanges/rate-limiter';
import type { ExchangeId, PositionSide } from './exchanges/types';

/** A symbol's last traded price and the best prices of its book. */
export interface Quote {
  last: number;
  bid: number;
  ask: number;
}

/** Prices of a symbol, for sizing `$` entries, the levels an entry carries, and levels the market may have passed. */
export interface PriceSource {
  /**
   * `maxAgeMs` 0 forces a fresh read (position sync pricing a close it just noticed). With a `deadline`
   * (epoch ms, an entry's), the caller stops waiting at it, or at once when a ban outlasts it, with a
   * final `deadline` failure.
   */
  price(exchange: ExchangeId, symbol: string, maxAgeMs?: number, deadline?: number): Promise<number>;
  quote(exchange: ExchangeId, symbol: string, maxAgeMs?: number, deadline?: number): Promise<Quote>;
}

/** Where a market entry opening `side` is expected to fill: the best ask for a long, the best bid for a short. */
export const expectedFill = (quote: Quote, side: PositionSide) => (side === 'long' ? quote.ask : quote.bid);

const TTL_MS = 1_000;

interface CachedQuote {
  at: number;
  value: Promise<Quote>;
  /** The read is in (the value resolved). */
  read: boolean;
}
/**
 * A price read not sent within this time (an address ban, or a queue that long) is refused instead: its
 * readers have moved on, and reads piled up behind a ban would all go out when it ends.
 */
const READ_DEADLINE_MS = 10_000;

type TickerBody = {
  result?: { list?: Array<{ lastPrice?: string; markPrice?: string; bid1Price?: string; ask1Price?: string }> };
  data?: Array<{ lastPr?: string; markPrice?: string; bidPr?: string; askPr?: string }>;
};

function quoteOf(exchange: ExchangeId, body: TickerBody): Quote {
  const bybit = body.result?.list?.[0];
  const bitget = body.data?.[0];
  const last = Number(exchange === 'bybit' ? (bybit?.lastPrice ?? bybit?.markPrice) : (bitget?.lastPr ?? bitget?.markPrice));
  const bid = Number(exchange === 'bybit' ? bybit?.bid1Price : bitget?.bidPr);
  const ask = Number(exchange === 'bybit' ? bybit?.ask1Price : bitget?.askPr);
  return { last, bid: bid > 0 ? bid : last, ask: ask > 0 ? ask : last };
}

/**
 * Reads the exchanges' public tickers (Bybit /v5/market/tickers, Bitget /api/v2/mix/market/ticker),
 * at most once per second per symbol and exchange however many customers an alert fans out to.
 */
export function createTickerPrices(baseUrl: (exchange: ExchangeId) => string, egress: string, fetchImpl: typeof fetch = fetch): PriceSource {
  const cache = new Map<string, CachedQuote>();

  async function load(exchange: ExchangeId, symbol: string): Promise<Quote> {
    const base = baseUrl(exchange).replace(/\/$/, '');
    const url =
      exchange === 'bybit'
        ? `${base}/v5/market/tickers?category=linear&symbol=${encodeURIComponent(symbol)}`
        : `${base}/api/v2/mix/market/ticker?productType=USDT-FUTURES&symbol=${encodeURIComponent(symbol)}`;
    // Counted by the same per-IP limiter as the adapters' requests, so tickers never push us over the ceiling.
    const release = await sharedExchangeLimiter.acquire({ exchange, egress, write: undefined, deadline: Date.now() + READ_DEADLINE_MS });
    let body: TickerBody;
    try {
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(5_000) });
      // Bybit's ban of the address (as the adapters hear it in ccxt's onRestResponse).
      if (exchange === 'bybit' && response.status === 403) sharedExchangeLimiter.reportAddressBan(exchange, egress, 'HTTP 403');
      if (!response.ok) throw new Error(`${exchange} ticker for ${symbol} answered HTTP ${response.status}`);
      body = (await response.json()) as TickerBody;
    } finally {
      release();
    }
    const quote = quoteOf(exchange, body);
    if (!(quote.last > 0)) throw new Error(`${exchange} has no price for ${symbol}`);
    return quote;
  }

  function shared(exchange: ExchangeId, symbol: string, maxAgeMs: number): CachedQuote {
    const key = `${exchange}:${symbol}`;
    const hit = cache.get(key);
    const now = Date.now();
    if (hit && now - hit.at < maxAgeMs) return hit;
    const entry: CachedQuote = { at: now, value: load(exchange, symbol), read: false };
    cache.set(key, entry);
    entry.value.then(
      () => (entry.read = true),
      () => cache.delete(key),
    );
    return entry;
  }

  function quote(exchange: ExchangeId, symbol: string, maxAgeMs = TTL_MS, deadline?: number): Promise<Quote> {
    const { value, read } = shared(exchange, symbol, maxAgeMs);
    // A price already read is there at once: only a read still under way is raced against the deadline.
    return deadline === undefined || read ? value : byDeadline(value, sharedExchangeLimiter.bans, exchange, egress, deadline, 'prices could not be read');
  }

  return {
    quote,
    price: async (exchange, symbol, maxAgeMs, deadline) => (await quote(exchange, symbol, maxAgeMs, deadline)).last,
  };
}
