import { DEFAULT_BROKER_CODE, DEFAULT_EGRESS } from '../../config';
import { BitgetAdapter } from './bitget';
import { BybitAdapter, type BybitOrderEntry } from './bybit';
import { ExchangeClock } from './bybit-ws/exchange-clock';
import { BybitSocketEntry, TRADE_RECV_WINDOW_MS } from './bybit-ws/order-entry';
import { BybitTradeSessions } from './bybit-ws/sessions';
import { ConnectionBudget, sharedConnectionBudget } from './bybit-ws/connection-budget';
import { CcxtClient, type FetchImplementation } from './ccxt-client';
import { sharedExchangeLimiter, type ExchangeRateLimiter } from './rate-limiter';
import { AccountStreams } from './streams/account-streams';
import { BitgetStreamRefused, openBitgetPrivate } from './streams/bitget-private';
import { BybitStreamRefused, openBybitPrivate } from './streams/bybit-private';
import type { ExchangeId } from './types';

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

/** Each account's private stream (docs/v5/websocket/private/*.mdx; bitget.com/api-doc/contract/websocket/private/*); the sandbox serves both under its base URL. */
export const PRIVATE_STREAM_URLS: Record<ExchangeId, { live: string; testnet: string; sandboxPath: string }> = {
  bybit: { live: 'wss://stream.bybit.com/v5/private', testnet: 'wss://stream-testnet.bybit.com/v5/private', sandboxPath: '/v5/private' },
  bitget: { live: 'wss://ws.bitget.com/v2/ws/private', testnet: 'wss://wspap.bitget.com/v2/ws/private', sandboxPath: '/v2/ws/private' },
};

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
  /** Default true: each warm account keeps its private stream, and reads come from it while it is synced. */
  privateStreams?: boolean | undefined;
}

/** Where `exchange`'s private stream of `mode` is. */
export function privateStreamUrlOf(exchange: ExchangeId, options: Pick<ExchangeAdaptersOptions, 'mode' | 'sandboxUrl'>): string {
  const urls = PRIVATE_STREAM_URLS[exchange];
  if (options.mode !== 'sandbox') return urls[options.mode];
  return `${baseUrlOf(exchange, options).replace(/^http/, 'ws')}${urls.sandboxPath}`;
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
export function createExchangeAdapters(options: ExchangeAdaptersOptions): { bybit: BybitAdapter; bitget: BitgetAdapter } {
  const client = (exchange: ExchangeId, clock?: ExchangeClock) =>
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
      clock,
    });
  const clock = new ExchangeClock();
  const bybitClient = client('bybit', clock);
  const bybit = new BybitAdapter(bybitClient, bybitOrderEntry(options, bybitClient.options, clock));
  const bitget = new BitgetAdapter(client('bitget'));
  if (options.privateStreams ?? true) {
    bybit.useStreams(bybitStreams(options, bybit, clock));
    bitget.useStreams(bitgetStreams(options, bitget));
  }
  return { bybit, bitget };
}

const PRIVATE_PING_MS = { bybit: 20_000, bitget: 25_000 } as const;
/** Bitget: 100 connections per address, 300 new per 5 minutes; we plan 95%. */
const BITGET_MAX_STREAMS = 95;
const BITGET_NEW_CONNECTIONS = { limit: 285, windowMs: 5 * 60_000 } as const;

function bybitStreams(options: ExchangeAdaptersOptions, adapter: BybitAdapter, clock: ExchangeClock): AccountStreams {
  const url = privateStreamUrlOf('bybit', options);
  return new AccountStreams({
    egress: options.egress ?? DEFAULT_EGRESS,
    // Every connection to stream.bybit.com counts in the address's 500 per 5 minutes, trade sessions included.
    budget: options.tradeConnectionBudget ?? sharedConnectionBudget,
    backoff: options.tradeSocketBackoff,
    refused: (error) => error instanceof BybitStreamRefused,
    readPositions: (credentials) => adapter.readPositions(credentials),
    open: (credentials, onEvents) =>
      openBybitPrivate({ url, apiKey: credentials.apiKey, secret: credentials.secret, clock, localAddress: options.localAddress, connectTimeoutMs: 5_000, pingIntervalMs: PRIVATE_PING_MS.bybit }, onEvents),
  });
}

function bitgetStreams(options: ExchangeAdaptersOptions, adapter: BitgetAdapter): AccountStreams {
  const url = privateStreamUrlOf('bitget', options);
  return new AccountStreams({
    egress: options.egress ?? DEFAULT_EGRESS,
    budget: new ConnectionBudget(BITGET_NEW_CONNECTIONS.limit, BITGET_NEW_CONNECTIONS.windowMs),
    maxStreams: BITGET_MAX_STREAMS,
    backoff: options.tradeSocketBackoff,
    refused: (error) => error instanceof BitgetStreamRefused,
    readPositions: (credentials) => adapter.readPositions(credentials),
    open: (credentials, onEvents) =>
      openBitgetPrivate(
        { url, apiKey: credentials.apiKey, secret: credentials.secret, passphrase: credentials.passphrase ?? '', localAddress: options.localAddress, connectTimeoutMs: 5_000, pingIntervalMs: PRIVATE_PING_MS.bitget },
        onEvents,
      ),
  });
}

function bybitOrderEntry(options: ExchangeAdaptersOptions, client: { egress: string; brokerCode: string; limiter: ExchangeRateLimiter }, clock: ExchangeClock): BybitOrderEntry | undefined {
  if ((options.bybitOrderEntry ?? 'websocket') !== 'websocket') return undefined;
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
