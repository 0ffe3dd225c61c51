import { sharedExchangeLimiter } from './exchanges/rate-limiter';
import type { ExchangeId } from './exchanges/types';

/** Last price of a symbol, for sizing `$` entries. */
export interface PriceSource {
  /** `maxAgeMs` 0 forces a fresh read (position sync pricing a close it just noticed). */
  price(exchange: ExchangeId, symbol: string, maxAgeMs?: number): Promise<number>;
}

const TTL_MS = 1_000;

/**
 * Reads the exchanges' public tickers (Bybit /v5/market/tickers, Bitget /api/v2/mix/market/ticker),
 * at most once per second per symbol and exchange however many customers an alert fans out to.
 */
export function createTickerPrices(baseUrl: (exchange: ExchangeId) => string, fetchImpl: typeof fetch = fetch): PriceSource {
  const cache = new Map<string, { at: number; value: Promise<number> }>();

  async function load(exchange: ExchangeId, symbol: string): Promise<number> {
    const base = baseUrl(exchange).replace(/\/$/, '');
    const url =
      exchange === 'bybit'
        ? `${base}/v5/market/tickers?category=linear&symbol=${encodeURIComponent(symbol)}`
        : `${base}/api/v2/mix/market/ticker?productType=USDT-FUTURES&symbol=${encodeURIComponent(symbol)}`;
    // Counted by the same per-IP limiter as the adapters' requests, so tickers never push us over the ceiling.
    const release = await sharedExchangeLimiter.acquire({ exchange, egress: process.env.EXCHANGE_EGRESS ?? 'default', write: undefined });
    let body: unknown;
    try {
      const response = await fetchImpl(url, { signal: AbortSignal.timeout(5_000) });
      if (!response.ok) throw new Error(`${exchange} ticker for ${symbol} answered HTTP ${response.status}`);
      body = await response.json();
    } finally {
      release();
    }
    const ticker = body as { result?: { list?: Array<{ lastPrice?: string; markPrice?: string }> }; data?: Array<{ lastPr?: string; markPrice?: string }> };
    const raw = exchange === 'bybit' ? (ticker.result?.list?.[0]?.lastPrice ?? ticker.result?.list?.[0]?.markPrice) : (ticker.data?.[0]?.lastPr ?? ticker.data?.[0]?.markPrice);
    const value = Number(raw);
    if (!(value > 0)) throw new Error(`${exchange} has no price for ${symbol}`);
    return value;
  }

  return {
    price(exchange, symbol, maxAgeMs = TTL_MS) {
      const key = `${exchange}:${symbol}`;
      const hit = cache.get(key);
      const now = Date.now();
      if (hit && now - hit.at < maxAgeMs) return hit.value;
      const value = load(exchange, symbol);
      cache.set(key, { at: now, value });
      value.catch(() => cache.delete(key));
      return value;
    },
  };
}
