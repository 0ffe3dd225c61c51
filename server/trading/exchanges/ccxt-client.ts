import ccxt, { type Exchange, type Market } from 'ccxt';
import type { ExchangeClock } from './bybit-ws/exchange-clock';
import type { ExchangeRateLimiter } from './rate-limiter';
import { readKind, writeKind } from './request-kinds';
import type { Credentials, ExchangeId } from './types';

/** Fetch as ccxt calls it (a user `fetchImplementation`). */
export type FetchImplementation = (url: string, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  exchange: ExchangeId;
  /**
   * Origin (and path prefix) every API request goes to, e.g. http://127.0.0.1:4000/sandbox; unset:
   * ccxt's own URLs (api.bybit.com, api.bitget.com).
   */
  baseUrl?: string | undefined;
  /** Bybit testnet / Bitget demo trading through ccxt's own switch (`setSandboxMode(true)`); needs no baseUrl. */
  testnet?: boolean | undefined;
  /** Our broker attribution: Bybit `Referer` header, Bitget `X-CHANNEL-API-CODE`. */
  brokerCode: string;
  limiter: ExchangeRateLimiter;
  egress: string;
  fetchImplementation?: FetchImplementation | undefined;
  timeoutMs?: number | undefined;
  /** Bybit: the exchange's time, learnt from every answer, signs every request (a local clock off by seconds is refused, 10002). */
  clock?: ExchangeClock | undefined;
}

/**
 * The call in progress, on the per-call view of the shared ccxt instance (`CcxtClient.withCredentials`).
 * One ccxt instance per exchange serves every customer: a ccxt constructor costs ~6 ms and ~0.3 MB (it
 * defines thousands of endpoint closures bound to the instance), so per-customer instances do not scale
 * to a fan-out over thousands of accounts. A view (`Object.create` of the instance) holds the caller's
 * key and this context as its own properties, and ccxt's methods take it as `this` down to `fetch2`,
 * which signs with it. (An AsyncLocalStorage did this before; in Node 20 it hooks every promise of the
 * process, ~7% of the main thread in a 5,000-account fan-out.)
 */
export interface CallContext {
  credentials: Credentials;
  /** Epoch ms after which the call is useless (an entry): the limiter refuses it rather than send it late. */
  deadline?: number | undefined;
}

const BITGET_API_KEYS = ['spot', 'mix', 'user', 'p2p', 'broker', 'margin', 'common', 'tax', 'convert', 'copy', 'earn', 'uta'];
const BYBIT_API_KEYS = ['spot', 'futures', 'v2', 'public', 'private'];

type FetchArgs = Parameters<Exchange['fetch2']>;

interface Limited extends Exchange {
  limitOptions: ClientOptions;
  /** Set on a call's view only. */
  callContext?: CallContext;
}

/** Waits for our limiter before ccxt signs (with the view's key) and sends. */
async function limitedFetch2(self: Limited, exchange: ExchangeId, original: (...args: FetchArgs) => Promise<unknown>, args: FetchArgs): Promise<unknown> {
  const options = self.limitOptions;
  const context = self.callContext;
  const credentials = context?.credentials;
  const path = String(args[0]);
  const release = await options.limiter.acquire({
    exchange,
    egress: options.egress,
    apiKey: credentials?.apiKey,
    write: writeKind(exchange, path),
    read: readKind(exchange, path),
    deadline: context?.deadline ?? credentials?.deadline,
    background: credentials?.background,
  });
  let sent: Promise<unknown>;
  try {
    sent = original(...args);
  } catch (error) {
    release();
    throw error;
  }
  return sent.finally(release);
}

/**
 * ccxt's `defineRestApiEndpoint` (4.5.x), but each endpoint method takes `this` from its call instead of
 * closing over the instance it was built on: called on a view, it requests (and signs) as that view.
 */
function defineEndpoint(self: Exchange, methodName: string, uppercaseMethod: string, lowercaseMethod: string, camelcaseMethod: string, path: string, paths: string[], config: object = {}): void {
  const splitPath = path.split(/[^a-zA-Z0-9]/);
  const camelcaseSuffix = splitPath.map(self.capitalize).join('');
  const underscoreSuffix = splitPath.map((x) => x.trim().toLowerCase()).filter((x) => x.length > 0).join('_');
  const camelcasePrefix = [paths[0]].concat(paths.slice(1).map(self.capitalize)).join('');
  const underscorePrefix = [paths[0]].concat(paths.slice(1).map((x) => x.trim()).filter((x) => x.length > 0)).join('_');
  const camelcase = camelcasePrefix + camelcaseMethod + self.capitalize(camelcaseSuffix);
  const underscore = underscorePrefix + '_' + lowercaseMethod + '_' + underscoreSuffix;
  const typeArgument = paths.length > 1 ? paths : paths[0];
  const endpoint = async function (this: Record<string, (...args: unknown[]) => unknown>, params = {}, context = {}) {
    return this[methodName]!(path, typeArgument, uppercaseMethod, params, undefined, undefined, config, context);
  };
  const target = self as unknown as Record<string, unknown>;
  target[camelcase] = endpoint;
  target[underscore] = endpoint;
}

/** The `"time":1672211918471}` that ends every Bybit V5 answer. */
const ANSWER_TIME = /"time":(\d{10,16})\}\s*$/;

class LimitedBybit extends ccxt.bybit {
  declare limitOptions: ClientOptions;
  override fetch2(...args: FetchArgs): Promise<any> {
    return limitedFetch2(this, 'bybit', (...a) => super.fetch2(...a), args);
  }

  override defineRestApiEndpoint(...args: Parameters<typeof defineEndpoint> extends [unknown, ...infer Rest] ? Rest : never): void {
    defineEndpoint(this, ...args);
  }

  /**
   * Every answer passes here first: an HTTP 403 is Bybit's per-address ban (rate-limit.mdx), whatever the
   * body says; the body's closing `time` (the exchange's clock, docs/v5/intro) keeps the clock in step.
   */
  override onRestResponse(...args: Parameters<Exchange['onRestResponse']>): string {
    const [statusCode, , , , , responseBody] = args;
    if (Number(statusCode) === 403) this.limitOptions.limiter.reportAddressBan('bybit', this.limitOptions.egress, 'HTTP 403');
    const stamp = typeof responseBody === 'string' ? ANSWER_TIME.exec(responseBody.slice(-32))?.[1] : undefined;
    if (stamp) this.limitOptions.clock?.heard(stamp, performance.now());
    return super.onRestResponse(...args);
  }

  /** The request timestamp (X-BAPI-TIMESTAMP): the exchange's time as last heard, our own before any answer. */
  override nonce(): number {
    return this.limitOptions.clock?.now() ?? super.nonce();
  }
}

class LimitedBitget extends ccxt.bitget {
  declare limitOptions: ClientOptions;
  override fetch2(...args: FetchArgs): Promise<any> {
    return limitedFetch2(this, 'bitget', (...a) => super.fetch2(...a), args);
  }

  override defineRestApiEndpoint(...args: Parameters<typeof defineEndpoint> extends [unknown, ...infer Rest] ? Rest : never): void {
    defineEndpoint(this, ...args);
  }
}

/** ccxt construction with the lean options of EXCHANGES 1.2: no start-up probes, typed duplicates. */
function construct(options: ClientOptions): Exchange {
  const common = {
    enableRateLimit: false,
    timeout: options.timeoutMs ?? 10_000,
    has: { fetchCurrencies: false },
    ...(options.fetchImplementation ? { fetchImplementation: options.fetchImplementation } : {}),
  };
  const baseUrl = options.baseUrl;
  const urls = (keys: string[]) => (baseUrl ? { urls: { api: Object.fromEntries(keys.map((key) => [key, baseUrl])) } } : {});
  let instance: LimitedBybit | LimitedBitget;
  if (options.exchange === 'bybit') {
    instance = new LimitedBybit({
      ...common,
      ...urls(BYBIT_API_KEYS),
      options: {
        defaultType: 'swap',
        defaultSubType: 'linear',
        fetchMarkets: { types: ['linear'] },
        enableUnifiedAccount: true,
        enableUnifiedMargin: false,
        unifiedMarginStatus: 6,
        brokerId: options.brokerCode,
        fetchOrder: { acknowledged: true },
      },
      exceptions: { exact: { '110072': ccxt.DuplicateOrderId, '170141': ccxt.DuplicateOrderId } },
    });
  } else {
    instance = new LimitedBitget({
      ...common,
      ...urls(BITGET_API_KEYS),
      options: {
        defaultType: 'swap',
        fetchMarkets: { types: ['swap'] },
        uta: false,
        broker: options.brokerCode,
      },
      exceptions: { exact: { '40786': ccxt.DuplicateOrderId } },
    });
  }
  instance.limitOptions = options;
  // Bybit: api-testnet.bybit.com; Bitget: the same host with the PAPTRADING header (demo trading).
  if (options.testnet) instance.setSandboxMode(true);
  return instance;
}

interface MarketSnapshot {
  source: Exchange;
  loadedAt: number;
}

/** Markets per exchange and base URL, loaded once per process and shared by every client. */
const marketSnapshots = new Map<string, Promise<MarketSnapshot>>();

export class CcxtClient {
  readonly ccxt: Exchange;
  private readonly snapshotKey: string;
  private sharedFrom: Exchange | undefined;
  private transport: Promise<unknown> | undefined;

  constructor(readonly options: ClientOptions) {
    this.ccxt = construct(options);
    this.snapshotKey = `${options.exchange}|${options.baseUrl ?? (options.testnet ? 'testnet' : 'live')}`;
  }

  /** The exchange's markets; loaded over the network once per process, `refresh` reloads them. */
  async markets(refresh = false): Promise<Record<string, Market>> {
    let snapshot = marketSnapshots.get(this.snapshotKey);
    if (!snapshot || refresh) {
      const loader = construct(this.options);
      snapshot = loader.loadMarkets(true).then(() => ({ source: loader, loadedAt: Date.now() }));
      marketSnapshots.set(this.snapshotKey, snapshot);
      // A failed load is not cached: the next call tries again.
      snapshot.catch(() => marketSnapshots.get(this.snapshotKey) === snapshot && marketSnapshots.delete(this.snapshotKey));
    }
    const { source } = await snapshot;
    if (this.sharedFrom !== source) {
      this.ccxt.setMarketsFromExchange(source);
      this.sharedFrom = source;
    }
    return this.ccxt.markets as Record<string, Market>;
  }

  /**
   * Runs `work` on a view of the shared instance that signs every request with the customer's key (and
   * gives the limiter its deadline, if any). What ccxt records of a call (last answer, headers) stays on
   * the view and goes with it.
   */
  async withCredentials<T>(credentials: Credentials, work: (exchange: Exchange) => Promise<T>, deadline?: number): Promise<T> {
    await this.markets();
    // ccxt sets up its transport on first use, on `this`: its HTTP client (an undici agent keeping
    // connections alive) and its optional proxy modules (dynamic imports, failing when not installed).
    // Done on a view, every call would do it again: a new connection per request and ~1.4 ms of imports.
    // Done once here, on the shared instance; the views inherit it.
    await (this.transport ??= Promise.all([this.ccxt.loadFetchImplementation(), this.ccxt.loadProxyModules()]));
    const view = Object.create(this.ccxt) as Limited;
    view.apiKey = credentials.apiKey;
    view.secret = credentials.secret;
    view.password = credentials.passphrase ?? '';
    view.callContext = { credentials, deadline };
    return work(view);
  }
}
