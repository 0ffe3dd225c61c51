import { randomBytes, randomUUID } from 'node:crypto';
import { randomHex } from './random-hex';
import { Books, type BookOptions } from './books';
import { Engine } from './engine';
import { FaultBook } from './faults';
import { Funding, FUNDING_INTERVAL_MS } from './funding';
import { liquidateCrossed } from './liquidation';
import { SlidingWindow, type BitgetStreamLimits } from './limits';
import { USDT } from './margin';
import { markets } from './markets';
import { OAuthStore, type OAuthClient } from './oauth-store';
import { PriceFeed, type Quote } from './prices';
import type { FillStamp } from './records';
import { deriveSeed, Random } from './random';
import { strictDefaults, withStrictness, type Strictness } from './strictness';
import { StreamFaults } from './streams/faults';
import { StreamHub } from './streams/hub';
import { evaluate } from './triggers';
import type { Account, ExchangeId, MarginMode, Permissions, PositionMode } from './types';

export interface SandboxOptions {
  seed?: number;
  /** Random walk of every symbol on start (default true). */
  randomWalk?: boolean;
  walkIntervalMs?: number;
  /** Injectable clock (ms epoch) for timestamps, recv windows and rate-limit windows. */
  now?: () => number;
  /**
   * How far the exchange's clock runs ahead of `now` (negative: behind), ms (default 0). Every timestamp
   * window, expiry and answer time is the exchange's; a client signing with its own clock is refused once the
   * difference leaves the window (D10).
   */
  clockOffsetMs?: number;
  /** Funding interval (default 8 hours; tests shorten it). */
  fundingIntervalMs?: number;
  oauthClients?: OAuthClient[];
  /** USDT credited to accounts created through quick connect (default 10,000). */
  oauthStartingBalance?: number;
  /** Order books takers fill against (default: book.ts defaultBook for every symbol). */
  book?: BookOptions;
  /** Readings of unverified rows (default: the stricter one of each, strictness.ts). */
  strictness?: Partial<Strictness>;
  /** How long Bybit bans an address that exceeded its per-IP ceiling (default 10 minutes). */
  ipBanMs?: number;
  /** Simulated one-way network latency (ms) of every HTTP request and answer and every WebSocket frame (default 0). */
  latencyMs?: number;
  /** Bybit's WebSocket idle cut: no frame from the client for this long closes the socket (default 10 minutes). */
  tradeIdleMs?: number;
  /**
   * New /v5/trade connections per address (default Bybit's 500 per 5 minutes). Only benchmarks that warm
   * thousands of sessions from one address change it, and say so: Bybit would refuse them.
   */
  tradeConnectionsPerIp?: { limit: number; windowMs: number };
  /** Bybit /v5/private's idle cut when the URL sets no `max_active_time` (default 10 minutes). */
  privateIdleMs?: number;
  /** Bitget /v2/ws/private's per-address and per-connection ceilings (default Bitget's, limits.ts); benchmarks only. */
  bitgetStreamLimits?: Partial<BitgetStreamLimits>;
}

/** Bybit /v5/trade: "if there is no ping-pong and no stream data ... cut off after 10 minutes" (docs/v5/websocket/wss-authentication.mdx). */
export const BYBIT_WS_IDLE_MS = 10 * 60_000;

/** A live socket, as the control plane sees it. */
export interface SocketHandle {
  /** The account it authenticated as (none before auth). */
  account(): Account | undefined;
  /** Cuts the connection at once, without a close frame (a network drop). */
  drop(): void;
}

/** A live Bybit /v5/trade socket. */
export interface TradeSocketHandle extends SocketHandle {
  /** The trade service behind this connection restarts: every later order op on it is answered 10019 (D10). */
  restart(): void;
}

/** A live private socket (Bybit /v5/private, Bitget /v2/ws/private). */
export interface StreamSocketHandle extends SocketHandle {
  exchange: ExchangeId;
}

/** Bybit: "wait for at least 10 minutes" after HTTP 403 access too frequent (docs/v5/rate-limit/rate-limit.mdx). */
export const BYBIT_IP_BAN_MS = 10 * 60_000;

export interface AccountInput {
  exchange: ExchangeId;
  uid?: string;
  apiKey?: string;
  secret?: string;
  passphrase?: string;
  label?: string;
  permissions?: Partial<Permissions>;
  ips?: string[];
  /** Starting USDT balance (default 0). */
  balance?: number;
  positionMode?: PositionMode;
  marginMode?: MarginMode;
  origin?: Account['origin'];
}

export interface Counters {
  requestsByIp: Map<string, number>;
  requestsByAccount: Map<string, number>;
  rejectedByIp: Map<string, number>;
  rejectedByAccount: Map<string, number>;
  forcedRateLimits: number;
  /** Bybit /v5/trade connections accepted, and refused past the per-address new-connection limit (by address). */
  tradeConnections: number;
  tradeConnectionsRefused: Map<string, number>;
  /** Private socket connections accepted per exchange, and refused (by `exchange:ip`: a ceiling, or a reconnect refusal). */
  streamConnections: Record<ExchangeId, number>;
  streamConnectionsRefused: Map<string, number>;
}

const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomText(length: number, alphabet = alnum): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}

/** All state of one fake exchange pair: accounts, prices, engine, limits, faults, OAuth grants. */
export class Sandbox {
  readonly now: () => number;
  clockOffsetMs: number;
  readonly funding: Funding;
  readonly prices: PriceFeed;
  readonly engine: Engine;
  readonly faults: FaultBook;
  readonly ipWindow = new SlidingWindow();
  readonly accountWindow = new SlidingWindow();
  readonly oauth: OAuthStore;
  readonly accounts = new Map<string, Account>();
  readonly byKey = new Map<string, Account>();
  readonly books: Books;
  strictness: Strictness;
  /** Banned addresses (`exchange:ip`) and when each ban ends (ms epoch). */
  readonly bans = new Map<string, number>();
  ipBanMs: number;
  latencyMs: number;
  /** Bybit /v5/trade: new connections per address, and order ops per address (3000 / s). */
  readonly tradeConnectionWindow = new SlidingWindow();
  readonly tradeOrderWindow = new SlidingWindow();
  readonly tradeSockets = new Set<TradeSocketHandle>();
  /** Private streams: the account events' fan-out, their faults, the open sockets, Bitget's new-connection window. */
  readonly streams = new StreamHub();
  readonly streamFaults: StreamFaults;
  readonly streamSockets = new Set<StreamSocketHandle>();
  readonly bitgetConnectionWindow = new SlidingWindow();
  counters: Counters = emptyCounters();
  private orderSeq = 0;
  /** Execution sequence, sandbox-wide (Bybit `seq`, the record endpoints' cursors, Bitget trade ids): large, as Bybit's are. */
  private fillSeq = 100_000_000_000;
  private readonly walkIntervalMs: number;
  private readonly fundingTimer: NodeJS.Timeout;

  constructor(readonly options: SandboxOptions = {}) {
    const seed = options.seed ?? 1;
    const clock = options.now ?? (() => Date.now());
    this.clockOffsetMs = options.clockOffsetMs ?? 0;
    this.now = () => clock() + this.clockOffsetMs;
    this.prices = new PriceFeed(seed, (symbol, quote) => this.onPrice(symbol, quote));
    this.faults = new FaultBook(new Random(deriveSeed(seed, 'faults')));
    this.streamFaults = new StreamFaults(new Random(deriveSeed(seed, 'streams')));
    this.oauth = new OAuthStore(this.now, options.oauthClients);
    this.books = new Books(this.now, options.book);
    this.strictness = withStrictness(strictDefaults(), options.strictness);
    this.ipBanMs = options.ipBanMs ?? BYBIT_IP_BAN_MS;
    this.latencyMs = options.latencyMs ?? 0;
    this.engine = new Engine({
      now: this.now,
      last: (symbol) => this.prices.last(symbol),
      mark: (symbol) => this.prices.mark(symbol),
      nextOrderId: (exchange) => this.nextOrderId(exchange),
      nextFill: (exchange, symbol) => this.nextFill(exchange, symbol),
      book: (exchange, symbol) => this.books.get(exchange, symbol),
      strictness: () => this.strictness,
      events: this.streams,
    });
    this.funding = new Funding(
      {
        accounts: () => this.accounts.values(),
        mark: (symbol) => this.prices.mark(symbol),
        settle: (account, position, paid, rate, time) => this.engine.settleFunding(account, position, paid, rate, time),
      },
      options.fundingIntervalMs ?? FUNDING_INTERVAL_MS,
      this.now(),
    );
    // Settlements fall due on the exchange's clock; requests settle them too (pipeline), so a moved test clock needs no timer.
    this.fundingTimer = setInterval(() => this.funding.settleDue(this.now()), 1000);
    this.fundingTimer.unref();
    this.walkIntervalMs = options.walkIntervalMs ?? 1000;
    if (options.randomWalk ?? true) this.prices.startWalk(markets.map((m) => m.symbol), this.walkIntervalMs);
  }

  /** Id (Bybit execId UUID, Bitget numeric tradeId), sequence, time and mark price of a new execution record. */
  private nextFill(exchange: ExchangeId, symbol: string): FillStamp {
    this.fillSeq += 1;
    const id = exchange === 'bitget' ? String(1_200_000_000_000_000_000n + BigInt(this.fillSeq)) : randomUUID();
    return { id, seq: this.fillSeq, time: this.now(), markPrice: this.prices.mark(symbol) };
  }

  private nextOrderId(exchange: ExchangeId): string {
    this.orderSeq += 1;
    if (exchange === 'bitget') return String(1_300_000_000_000_000_000n + BigInt(this.orderSeq));
    const hex = this.orderSeq.toString(16).padStart(12, '0');
    // 18 hex digits for the UUID's random parts.
    const random = randomHex(9);
    return `${random.slice(0, 8)}-${random.slice(8, 12)}-4${random.slice(12, 15)}-a${random.slice(15, 18)}-${hex}`;
  }

  /** New prices: each account's orders and position rules run on them, then any position whose mark crossed its liquidation price is liquidated. */
  private onPrice(symbol: string, quote: Quote): void {
    const markOf = (name: string) => this.prices.mark(name);
    for (const account of this.accounts.values()) {
      evaluate(this.engine, account, symbol, quote);
      liquidateCrossed(this.engine, account, markOf);
    }
  }

  /** A random uid of the exchange's shape no account has (9 digits on Bybit, 10 on Bitget: thousands of accounts do collide). */
  private unusedUid(exchange: 'bybit' | 'bitget'): string {
    for (;;) {
      const uid = exchange === 'bybit' ? randomText(9, '0123456789').replace(/^0/, '1') : randomText(10, '0123456789').replace(/^0/, '4');
      if (!this.accounts.has(uid)) return uid;
    }
  }

  createAccount(input: AccountInput): Account {
    const exchange = input.exchange;
    if (exchange !== 'bybit' && exchange !== 'bitget') throw new Error("exchange must be 'bybit' or 'bitget'");
    const uid = input.uid ?? this.unusedUid(exchange);
    const apiKey = input.apiKey ?? (exchange === 'bybit' ? randomText(18) : `bg_${randomText(32, '0123456789abcdef')}`);
    if (this.accounts.has(uid)) throw new Error(`An account with uid ${uid} already exists`);
    if (this.byKey.has(apiKey)) throw new Error(`An account with api key ${apiKey} already exists`);
    const account: Account = {
      exchange,
      uid,
      apiKey,
      secret: input.secret ?? (exchange === 'bybit' ? randomText(36) : randomText(64, '0123456789abcdef')),
      passphrase: exchange === 'bitget' ? (input.passphrase ?? randomText(16)) : '',
      label: input.label ?? '',
      permissions: { read: true, trade: true, withdraw: false, spot: true, ...input.permissions },
      ips: [...(input.ips ?? [])],
      origin: input.origin ?? 'control',
      createdAt: this.now(),
      balances: new Map([[USDT, input.balance ?? 0]]),
      positionModes: new Map(),
      defaultPositionMode: input.positionMode ?? 'oneway',
      marginModes: new Map(),
      defaultMarginMode: input.marginMode ?? 'cross',
      leverage: new Map(),
      positions: new Map(),
      orders: [],
      fills: [],
      marginShort: false,
    };
    this.accounts.set(uid, account);
    this.byKey.set(apiKey, account);
    return account;
  }

  find(idOrKey: string): Account | undefined {
    return this.accounts.get(idOrKey) ?? this.byKey.get(idOrKey);
  }

  deleteAccount(account: Account): void {
    this.accounts.delete(account.uid);
    this.byKey.delete(account.apiKey);
  }

  /** Forgets accounts, orders, counters, bans, faults and grants; prices, books, strictness and latency go back to their start values; open trade and private sockets are cut. */
  reset(): void {
    this.accounts.clear();
    this.byKey.clear();
    this.counters = emptyCounters();
    this.bans.clear();
    this.books.reset();
    this.strictness = withStrictness(strictDefaults(), this.options.strictness);
    this.ipBanMs = this.options.ipBanMs ?? BYBIT_IP_BAN_MS;
    this.latencyMs = this.options.latencyMs ?? 0;
    this.clockOffsetMs = this.options.clockOffsetMs ?? 0;
    this.funding.reset(this.options.fundingIntervalMs ?? FUNDING_INTERVAL_MS, this.now());
    this.ipWindow.clear();
    this.accountWindow.clear();
    this.tradeConnectionWindow.clear();
    this.tradeOrderWindow.clear();
    for (const socket of [...this.tradeSockets, ...this.streamSockets]) socket.drop();
    this.streams.clear();
    this.streamFaults.clear();
    this.bitgetConnectionWindow.clear();
    this.faults.set([]);
    this.oauth.clear();
    this.prices.reset();
  }

  close(): void {
    this.prices.stopWalk();
    clearInterval(this.fundingTimer);
  }
}

function emptyCounters(): Counters {
  return {
    requestsByIp: new Map(),
    requestsByAccount: new Map(),
    rejectedByIp: new Map(),
    rejectedByAccount: new Map(),
    forcedRateLimits: 0,
    tradeConnections: 0,
    tradeConnectionsRefused: new Map(),
    streamConnections: { bybit: 0, bitget: 0 },
    streamConnectionsRefused: new Map(),
  };
}

export function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
