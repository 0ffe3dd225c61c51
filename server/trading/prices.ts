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
  /** `maxAgeMs` 0 forces a fresh read (position sync pricing a close it just noticed). */
  price(exchange: ExchangeId, symbol: string, maxAgeMs?: number): Promise<number>;
  quote(exchange: ExchangeId, symbol: string, maxAgeMs?: number): Promise<Quote>;
}

/** Where a market entry opening `side` is expected to fill: the best ask for a long, the best bid for a short. */
export const expectedFill = (quote: Quote, side: PositionSide) => (side === 'long' ? quote.ask : quote.bid);

const TTL_MS = 1_000;

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
  const cache = new Map<string, { at: number; value: Promise<Quote> }>();

  async function load(exchange: ExchangeId, symbol: string): Promise<Quote> {
    const base = baseUrl(exchange).replace(/\/$/, '');
    const url =
      exchange === 'bybit'
        ? `${base}/v5/market/tickers?category=linear&symbol=${encodeURIComponent(symbol)}`
        : `${base}/api/v2/mix/market/ticker?productType=USDT-FUTURES&symbol=${encodeURIComponent(symbol)}`;
    // Counted by the same per-IP limiter as the adapters' requests, so tickers never push us over the ceiling.
    const release = await sharedExchangeLimiter.acquire({ exchange, egress, write: undefined });
    let body: TickerBody;
    try {
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(5_000) });
      if (!response.ok) throw new Error(`${exchange} ticker for ${symbol} answered HTTP ${response.status}`);
      body = (await response.json()) as TickerBody;
    } finally {
      release();
    }
    const quote = quoteOf(exchange, body);
    if (!(quote.last > 0)) throw new Error(`${exchange} has no price for ${symbol}`);
    return quote;
  }

  function quote(exchange: ExchangeId, symbol: string, maxAgeMs = TTL_MS): Promise<Quote> {
    const key = `${exchange}:${symbol}`;
    const hit = cache.get(key);
    const now = Date.now();
    if (hit && now - hit.at < maxAgeMs) return hit.value;
    const value = load(exchange, symbol);
    cache.set(key, { at: now, value });
    value.catch(() => cache.delete(key));
    return value;
  }

  return {
    quote,
    price: async (exchange, symbol, maxAgeMs) => (await quote(exchange, symbol, maxAgeMs)).last,
  };
}
