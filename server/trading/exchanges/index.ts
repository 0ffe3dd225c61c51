import { BitgetAdapter } from './bitget';
import { BybitAdapter } from './bybit';
import { CcxtClient, type FetchImplementation } from './ccxt-client';
import { sharedExchangeLimiter, type ExchangeRateLimiter } from './rate-limiter';
import type { ExchangeAdapter, ExchangeId } from './types';

export const LIVE_BASE_URLS: Record<ExchangeId, string> = {
  bybit: 'https://api.bybit.com',
  bitget: 'https://api.bitget.com',
};

/** Our broker attribution (Bybit `Referer`, Bitget `X-CHANNEL-API-CODE`); set per deployment. */
export const DEFAULT_BROKER_CODE = 'COPYTRADE';

export interface ExchangeAdaptersOptions {
  mode: 'sandbox' | 'live';
  /** Base URL of the sandbox (both fake exchanges live under it); required in sandbox mode. */
  sandboxUrl?: string | undefined;
  fetchImplementation?: FetchImplementation | undefined;
  /** Defaults to the process-wide limiter, shared with every other adapter set. */
  limiter?: ExchangeRateLimiter | undefined;
  /** The outgoing address requests leave from (the limiter's per-IP key). */
  egress?: string | undefined;
  brokerCodes?: Partial<Record<ExchangeId, string>> | undefined;
  timeoutMs?: number | undefined;
}

export function baseUrlOf(exchange: ExchangeId, options: Pick<ExchangeAdaptersOptions, 'mode' | 'sandboxUrl'>): string {
  if (options.mode === 'live') return LIVE_BASE_URLS[exchange];
  if (!options.sandboxUrl) throw new Error('createExchangeAdapters: sandbox mode needs sandboxUrl');
  return options.sandboxUrl.replace(/\/+$/, '');
}

/** The Bybit and Bitget adapters; markets are loaded once per process and base URL, lazily. */
export function createExchangeAdapters(options: ExchangeAdaptersOptions): Record<ExchangeId, ExchangeAdapter> {
  const client = (exchange: ExchangeId) =>
    new CcxtClient({
      exchange,
      baseUrl: baseUrlOf(exchange, options),
      brokerCode: options.brokerCodes?.[exchange] ?? process.env[`${exchange.toUpperCase()}_BROKER_CODE`] ?? DEFAULT_BROKER_CODE,
      limiter: options.limiter ?? sharedExchangeLimiter,
      egress: options.egress ?? process.env.EXCHANGE_EGRESS ?? 'default',
      fetchImplementation: options.fetchImplementation,
      timeoutMs: options.timeoutMs,
    });
  return { bybit: new BybitAdapter(client('bybit')), bitget: new BitgetAdapter(client('bitget')) };
}

export { clientOrderId, parseClientOrderId } from './client-order-id';
export { ExchangeRateLimiter, sharedExchangeLimiter } from './rate-limiter';
export { ExchangeFailure } from './types';
export type * from './types';
