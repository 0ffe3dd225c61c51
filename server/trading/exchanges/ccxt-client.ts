import { AsyncLocalStorage } from 'node:async_hooks';
import ccxt, { type Exchange, type Market } from 'ccxt';
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
}

/**
 * The credentials of the call in progress. One ccxt instance per exchange serves every customer: a
 * ccxt constructor costs ~6 ms and ~0.3 MB (it defines thousands of endpoint closures bound to the
 * instance), so per-customer instances do not scale to a fan-out over thousands of accounts. The key
 * is applied in `fetch2` right before ccxt signs, synchronously, and cleared right after.
 */
const callContext = new AsyncLocalStorage<CallContext>();

export interface CallContext {
  credentials: Credentials;
  /** Epoch ms after which the call is useless (an entry): the limiter refuses it rather than send it late. */
  deadline?: number | undefined;
}

const BITGET_API_KEYS = ['spot', 'mix', 'user', 'p2p', 'broker', 'margin', 'common', 'tax', 'convert', 'copy', 'earn', 'uta'];
const BYBIT_API_KEYS = ['spot', 'futures', 'v2', 'public', 'private'];

type FetchArgs = Parameters<Exchange['fetch2']>;

/** Waits for our limiter, then signs with the caller's key: ccxt signs before its first await. */
async function limitedFetch2(self: Exchange, exchange: ExchangeId, options: ClientOptions, original: (...args: FetchArgs) => Promise<unknown>, args: FetchArgs): Promise<unknown> {
  const context = callContext.getStore();
  const credentials = context?.credentials;
  const path = String(args[0]);
  const release = await options.limiter.acquire({
    exchange,
    egress: options.egress,
    apiKey: credentials?.apiKey,
    write: writeKind(exchange, path),
    read: readKind(exchange, path),
    deadline: context?.deadline,
  });
  let sent: Promise<unknown>;
  self.apiKey = credentials?.apiKey ?? '';
  self.secret = credentials?.secret ?? '';
  self.password = credentials?.passphrase ?? '';
  try {
    sent = original(...args);
  } catch (error) {
    release();
    throw error;
  } finally {
    self.apiKey = '';
    self.secret = '';
    self.password = '';
  }
  return sent.finally(release);
}

class LimitedBybit extends ccxt.bybit {
  declare limitOptions: ClientOptions;
  override fetch2(...args: FetchArgs): Promise<any> {
    return limitedFetch2(this, 'bybit', this.limitOptions, (...a) => super.fetch2(...a), args);
  }

  /** Every answer passes here first: an HTTP 403 is Bybit's per-address ban (rate-limit.mdx), whatever the body says. */
  override onRestResponse(...args: Parameters<Exchange['onRestResponse']>): string {
    const [statusCode] = args;
    if (Number(statusCode) === 403) this.limitOptions.limiter.reportAddressBan('bybit', this.limitOptions.egress, 'HTTP 403');
    return super.onRestResponse(...args);
  }
}

class LimitedBitget extends ccxt.bitget {
  declare limitOptions: ClientOptions;
  override fetch2(...args: FetchArgs): Promise<any> {
    return limitedFetch2(this, 'bitget', this.limitOptions, (...a) => super.fetch2(...a), args);
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

  /** Runs `work` with the customer's key applied to every request it makes (and its deadline, if any). */
  async withCredentials<T>(credentials: Credentials, work: (exchange: Exchange) => Promise<T>, deadline?: number): Promise<T> {
    await this.markets();
    return callContext.run({ credentials, deadline }, () => work(this.ccxt));
  }
}
