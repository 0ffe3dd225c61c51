import { DEFAULT_BROKER_CODE, DEFAULT_EGRESS } from '../../config';
import { BitgetAdapter } from './bitget';
import { BybitAdapter, type BybitOrderEntry } from './bybit';
import { ExchangeClock } from './bybit-ws/exchange-clock';
import { BybitSocketEntry, TRADE_RECV_WINDOW_MS } from './bybit-ws/order-entry';
import { BybitTradeSessions } from './bybit-ws/sessions';
import type { ConnectionBudget } from './bybit-ws/connection-budget';
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

/** Bybit's WebSocket order entry (docs/v5/websocket/trade/guideline.mdx); the sandbox serves it under its base URL. */
export const BYBIT_TRADE_SOCKET_URLS = {
  live: 'wss://stream.bybit.com/v5/trade',
  testnet: 'wss://stream-testnet.bybit.com/v5/trade',
} as const;

/** sandbox: the built-in fake exchanges; testnet: Bybit testnet and Bitget demo trading; live: real money. */
export type ExchangeAccessMode = 'sandbox' | 'testnet' | 'live';

/** How Bybit orders are created: over each account's /v5/trade session when it is open (REST otherwise), or always REST. */
export type BybitOrderEntryMode = 'websocket' | 'rest';

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
  /** Default 'websocket' (Config.bybitOrderEntry, BYBIT_ORDER_ENTRY): sessions are opened by `warmSessions`. */
  bybitOrderEntry?: BybitOrderEntryMode | undefined;
  /** The local address Bybit trade sockets connect from (a host with several egress addresses). */
  localAddress?: string | undefined;
  /** Reopening delays of dropped trade sockets (tests shorten them). */
  tradeSocketBackoff?: { minMs: number; maxMs: number } | undefined;
  /** New trade connections per address (default: the process-wide budget of Bybit's 500 per 5 minutes at 95%). */
  tradeConnectionBudget?: ConnectionBudget | undefined;
}

/** Where Bybit's trade socket of `mode` is (the sandbox's: ws://.../v5/trade under its base URL). */
export function tradeSocketUrlOf(options: Pick<ExchangeAdaptersOptions, 'mode' | 'sandboxUrl'>): string {
  if (options.mode !== 'sandbox') return BYBIT_TRADE_SOCKET_URLS[options.mode];
  return `${baseUrlOf('bybit', options).replace(/^http/, 'ws')}/v5/trade`;
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
  const bybit = client('bybit');
  return { bybit: new BybitAdapter(bybit, bybitOrderEntry(options, bybit.options)), bitget: new BitgetAdapter(client('bitget')) };
}

function bybitOrderEntry(options: ExchangeAdaptersOptions, client: { egress: string; brokerCode: string; limiter: ExchangeRateLimiter }): BybitOrderEntry | undefined {
  if ((options.bybitOrderEntry ?? 'websocket') !== 'websocket') return undefined;
  const clock = new ExchangeClock();
  const sessions = new BybitTradeSessions({
    url: tradeSocketUrlOf(options),
    egress: client.egress,
    localAddress: options.localAddress,
    backoff: options.tradeSocketBackoff,
    budget: options.tradeConnectionBudget,
    clock,
  });
  const requestTimeoutMs = Math.min(options.timeoutMs ?? TRADE_RECV_WINDOW_MS, TRADE_RECV_WINDOW_MS);
  return { sessions, entry: new BybitSocketEntry({ sessions, limiter: client.limiter, egress: client.egress, brokerCode: client.brokerCode, requestTimeoutMs, clock }) };
}

export type { AddressBan } from './address-ban';
export { clientOrderId, parseClientOrderId } from './client-order-id';
export { ExchangeRateLimiter, sharedExchangeLimiter } from './rate-limiter';
export { BybitTradeSessions } from './bybit-ws/sessions';
export { ConnectionBudget, sharedConnectionBudget } from './bybit-ws/connection-budget';
export { ExchangeFailure } from './types';
export type * from './types';
