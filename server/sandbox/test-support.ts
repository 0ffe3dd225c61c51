import { createHmac } from 'node:crypto';
import ccxt, { type bitget as Bitget, type bybit as Bybit } from 'ccxt';
import { guardedFetch } from '../../tests/helpers/fetch-guard';
import { deepBook } from './book';
import type { Credentials } from './control';
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from './index';

const bitgetApiKeys = ['spot', 'mix', 'user', 'p2p', 'broker', 'margin', 'common', 'tax', 'convert', 'copy', 'earn', 'uta'];

/**
 * A sandbox whose takers all fill at the mark price (the deep book), for tests that assert exact fill
 * prices; every other rule is as strict as always.
 */
export function startExactSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ ...options, book: { ...deepBook, ...options.book } });
}

/** ccxt bybit with the lean options of EXCHANGES 1.2, pointed at the sandbox. */
export function bybitClient(base: string, creds: Credentials, extra: Record<string, unknown> = {}): Bybit {
  return new ccxt.bybit({
    apiKey: creds.apiKey,
    secret: creds.secret,
    enableRateLimit: false,
    fetchImplementation: guardedFetch,
    urls: { api: { spot: base, futures: base, v2: base, public: base, private: base } },
    has: { fetchCurrencies: false },
    options: { fetchMarkets: { types: ['linear'] }, enableUnifiedAccount: true, enableUnifiedMargin: false, unifiedMarginStatus: 6, brokerId: 'SANDBOXTEST' },
    exceptions: { exact: { '110072': ccxt.DuplicateOrderId } },
    ...extra,
  });
}

/** ccxt bitget with the lean options of EXCHANGES 1.2, pointed at the sandbox. */
export function bitgetClient(base: string, creds: Credentials, extra: Record<string, unknown> = {}): Bitget {
  return new ccxt.bitget({
    apiKey: creds.apiKey,
    secret: creds.secret,
    password: creds.passphrase,
    enableRateLimit: false,
    fetchImplementation: guardedFetch,
    urls: { api: Object.fromEntries(bitgetApiKeys.map((key) => [key, base])) },
    has: { fetchCurrencies: false },
    options: { defaultType: 'swap', fetchMarkets: { types: ['swap'] }, uta: false, broker: 'SANDBOXTEST' },
    exceptions: { exact: { '45034': ccxt.DuplicateOrderId } },
    ...extra,
  });
}

export interface RawAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
  json(): Record<string, unknown>;
}

async function answer(response: Response): Promise<RawAnswer> {
  const body = await response.text();
  return { status: response.status, body, headers: Object.fromEntries(response.headers), json: () => JSON.parse(body) as Record<string, unknown> };
}

export interface RawOptions {
  /** Changes the request after signing (to prove the server checks the bytes it received). */
  tamper?: (parts: { query: string; body: string }) => { query: string; body: string };
  timestamp?: number;
  signal?: AbortSignal;
  /** Bitget: sign this path instead of the request path (e.g. with the mount prefix left in). */
  signPath?: string;
}

/** A Bybit V5 request signed by hand: sign(timestamp + key + recvWindow + query|body). */
export async function bybitRaw(base: string, creds: Credentials, method: 'GET' | 'POST', path: string, params: Record<string, unknown>, options: RawOptions = {}): Promise<RawAnswer> {
  const timestamp = String(options.timestamp ?? Date.now());
  let query = method === 'GET' ? new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString() : '';
  let body = method === 'POST' ? JSON.stringify(params) : '';
  const sign = createHmac('sha256', creds.secret).update(timestamp + creds.apiKey + '5000' + (method === 'GET' ? query : body)).digest('hex');
  if (options.tamper) ({ query, body } = options.tamper({ query, body }));
  const response = await fetch(`${base}${path}?${query}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-bapi-api-key': creds.apiKey, 'x-bapi-timestamp': timestamp, 'x-bapi-recv-window': '5000', 'x-bapi-sign': sign },
    body: method === 'POST' ? body : undefined,
    signal: options.signal,
  });
  return answer(response);
}

/** A Bitget V2 request signed by hand: base64(sign(timestamp + METHOD + path + ?query + body)). */
export async function bitgetRaw(base: string, creds: Credentials, method: 'GET' | 'POST', path: string, params: Record<string, unknown>, options: RawOptions = {}): Promise<RawAnswer> {
  const timestamp = String(options.timestamp ?? Date.now());
  const sorted = Object.keys(params).sort().map((key) => `${key}=${String(params[key])}`).join('&');
  let query = method === 'GET' ? sorted : '';
  let body = method === 'POST' ? JSON.stringify(params) : '';
  const sign = createHmac('sha256', creds.secret).update(timestamp + method + (options.signPath ?? path) + (query ? `?${query}` : '') + body).digest('base64');
  if (options.tamper) ({ query, body } = options.tamper({ query, body }));
  const response = await fetch(`${base}${path}${query ? `?${query}` : ''}`, {
    method,
    headers: { 'content-type': 'application/json', 'access-key': creds.apiKey, 'access-sign': sign, 'access-timestamp': timestamp, 'access-passphrase': creds.passphrase },
    body: method === 'POST' ? body : undefined,
    signal: options.signal,
  });
  return answer(response);
}
