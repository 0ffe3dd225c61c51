import { DEFAULT_BROKER_CODE, DEFAULT_EGRESS } from '../../config';
import { BitgetAdapter } from './bitget';
import { BybitAdapter } from './bybit';
import { CcxtClient, type FetchImplementation } from './ccxt-client';
import { sharedExchangeLimiter, type ExchangeRateLimiter } from './rate-limiter';
import type { ExchangeAdapter, ExchangeId } from './types';

export const LIVE_BASE_URLS: Record<ExchangeId, string> = {
  bybit: 'https://api.bybit.com',
  bitget: 'https://api.bitget.com',
};

/**
 * Where ccxt's own sandbox switch sends testnet requests: Bybit's testnet host; Bitget's demo trading
 * is the live host with the `PAPTRADING: 1` header (ccxt 4.5.84 `bitget#sign`).
 */
export const TESTNET_BASE_URLS: Record<ExchangeId, string> = {
  bybit: 'https://api-testnet.bybit.com',
  bitget: 'https://api.bitget.com',
};

/** sandbox: the built-in fake exchanges; testnet: Bybit testnet and Bitget demo trading; live: real money. */
export type ExchangeAccessMode = 'sandbox' | 'testnet' | 'live';

export interface ExchangeAdaptersOptions {
  mode: ExchangeAccessMode;
  /** Base URL of the sandbox (both fake exchanges live under it); required in sandbox mode. */
  sandboxUrl?: string | undefined;
  fetchImplementation?: FetchImplementation | undefined;
  /** Defaults to the process-wide limiter, shared with every other adapter set. */
  limiter?: ExchangeRateLimiter | undefined;
  /** The outgoing address requests leave from (the limiter's per-IP key; Config.exchanges.egress). */
  egress?: string | undefined;
  /** Config.exchanges.brokerCodes. */
  brokerCodes?: Partial<Record<ExchangeId, string>> | undefined;
  timeoutMs?: number | undefined;
}

/** The origin requests of `mode` go to (public tickers read it too). */
export function baseUrlOf(exchange: ExchangeId, options: Pick<ExchangeAdaptersOptions, 'mode' | 'sandboxUrl'>): string {
  if (options.mode === 'live') return LIVE_BASE_URLS[exchange];
  if (options.mode === 'testnet') return TESTNET_BASE_URLS[exchange];
  if (!options.sandboxUrl) throw new Error('createExchangeAdapters: sandbox mode needs sandboxUrl');
  return options.sandboxUrl.replace(/\/+$/, '');
}

/** The Bybit and Bitget adapters; markets are loaded once per process and base URL, lazily. */
export function createExchangeAdapters(options: ExchangeAdaptersOptions): Record<ExchangeId, ExchangeAdapter> {
  const client = (exchange: ExchangeId) =>
    new CcxtClient({
      exchange,
      // Testnet goes through ccxt's own switch, so its URLs and headers are ccxt's, not ours.
      baseUrl: options.mode === 'testnet' ? undefined : baseUrlOf(exchange, options),
      testnet: options.mode === 'testnet',
      brokerCode: options.brokerCodes?.[exchange] ?? DEFAULT_BROKER_CODE,
      limiter: options.limiter ?? sharedExchangeLimiter,
      egress: options.egress ?? DEFAULT_EGRESS,
      fetchImplementation: options.fetchImplementation,
      timeoutMs: options.timeoutMs,
    });
  return { bybit: new BybitAdapter(client('bybit')), bitget: new BitgetAdapter(client('bitget')) };
}

export type { AddressBan } from './address-ban';
export { clientOrderId, parseClientOrderId } from './client-order-id';
export { ExchangeRateLimiter, sharedExchangeLimiter } from './rate-limiter';
export { ExchangeFailure } from './types';
export type * from './types';
