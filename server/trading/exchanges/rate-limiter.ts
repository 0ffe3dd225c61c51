import { createHash } from 'node:crypto';
import { AddressBans, type AddressBanListener, type ProbeAnswered } from './address-ban';
import type { Ceiling, EgressBudget } from './egress-budget';
import { exchangeNames } from './errors';
import type { ReadKind, WriteKind } from './request-kinds';
import { Semaphore } from './semaphore';
import type { SharedWindow } from './egress-share';
import { SlidingWindow, type GrantDone, type WindowStats } from './sliding-window';
import { ExchangeFailure, type ExchangeId } from './types';

/**
 * The process-wide limiter in front of every exchange request (ccxt's own per-instance limiter is
 * switched off). Two kinds of ceiling, both sliding windows:
 * - per exchange and egress address: Bybit 600 requests / 5 s, Bitget 6000 / minute (EXCHANGES 2.6, 3.6);
 * - per exchange account: 10 order writes / s (create, cancel, TP/SL) and a settings ceiling for
 *   leverage, position- and margin-mode changes (Bybit 10 / s, Bitget 5 / s); Bitget also limits
 *   reads per account and endpoint (all-position 5 / s, order detail and plan lists 10 / s, spot
 *   account info 1 / s: LIVE-FIDELITY B9), each its own window.
 * A Bybit 403 bans the address for at least 10 minutes: the limiter then holds every request to
 * that exchange from that address until the ban is over (see AddressBans).
 * We plan below the exchanges' numbers (DEFAULT_CEILINGS: 95% per IP, 9 of 10 orders per account):
 * our clock is not the exchange's, and a slot is held from the grant until a window after the
 * answer (see SlidingWindow), so a late arrival can never be counted with the next window's grants.
 * Requests in flight per exchange and egress are capped too: a request is signed when it is granted,
 * and a thousand signed requests queued in sockets would arrive after Bybit's 5 s receive window.
 */

export interface ExchangeCeilings {
  perIp: Ceiling;
  /** Requests in flight at once per egress address. */
  maxInFlight: number;
  perAccountOrders: Ceiling;
  perAccountSettings: Ceiling;
  /** Reads the exchange limits per account, one window per endpoint. */
  perAccountReads?: Partial<Record<ReadKind, Ceiling>>;
  /** Orders over the exchange's WebSocket order entry, per egress address (Bybit /v5/trade: 3000 / s), apart from the HTTP ceiling. */
  perIpOrderEntry?: Ceiling;
}

/** The exchanges' ceilings (EXCHANGES 2.6, 3.6) and the share of each we plan to use. */
export const EXCHANGE_CEILINGS = {
  bybit: {
    perIp: { limit: 600, windowMs: 5_000 },
    perAccountOrders: { limit: 10, windowMs: 1_000 },
    perAccountSettings: { limit: 10, windowMs: 1_000 },
    // docs/v5/websocket/trade/guideline.mdx: 10403 past 3000 requests / s per IP.
    perIpOrderEntry: { limit: 3_000, windowMs: 1_000 },
  },
  bitget: {
    perIp: { limit: 6_000, windowMs: 60_000 },
    perAccountOrders: { limit: 10, windowMs: 1_000 },
    perAccountSettings: { limit: 5, windowMs: 1_000 },
    // Contract API pages Get-All-Positions, Get-Order-Details, Get-Plan-Order-List, Get-History-Plan-Order,
    // Get-Single-Account and spot Get-Account-Info.
    perAccountReads: {
      positions: { limit: 5, windowMs: 1_000 },
      orderDetail: { limit: 10, windowMs: 1_000 },
      planPending: { limit: 10, windowMs: 1_000 },
      planHistory: { limit: 10, windowMs: 1_000 },
      accountSettings: { limit: 10, windowMs: 1_000 },
      keyInfo: { limit: 1, windowMs: 1_000 },
    },
  },
} as const satisfies Record<ExchangeId, Omit<ExchangeCeilings, 'maxInFlight'>>;
export const PLANNED_SHARE = 0.95;

const planned = ({ limit, windowMs }: Ceiling, share = PLANNED_SHARE): Ceiling => ({ limit: Math.max(1, Math.min(limit - 1, Math.floor(limit * share))), windowMs });

const plannedReads = (reads: Partial<Record<ReadKind, Ceiling>>): Partial<Record<ReadKind, Ceiling>> =>
  Object.fromEntries(Object.entries(reads).map(([kind, ceiling]) => [kind, planned(ceiling)]));

/** What the limiter grants: Bybit 570 / 5 s and Bitget 5,700 / min per IP; 9 orders / s per account. */
export const DEFAULT_CEILINGS: Record<ExchangeId, ExchangeCeilings> = {
  bybit: {
    perIp: planned(EXCHANGE_CEILINGS.bybit.perIp),
    maxInFlight: 48,
    perAccountOrders: planned(EXCHANGE_CEILINGS.bybit.perAccountOrders),
    perAccountSettings: planned(EXCHANGE_CEILINGS.bybit.perAccountSettings),
    perIpOrderEntry: planned(EXCHANGE_CEILINGS.bybit.perIpOrderEntry),
  },
  bitget: {
    perIp: planned(EXCHANGE_CEILINGS.bitget.perIp),
    maxInFlight: 48,
    perAccountOrders: planned(EXCHANGE_CEILINGS.bitget.perAccountOrders),
    perAccountSettings: planned(EXCHANGE_CEILINGS.bitget.perAccountSettings),
    perAccountReads: plannedReads(EXCHANGE_CEILINGS.bitget.perAccountReads),
  },
};

/** Spacing added to each window's edge (timer and clock granularity between us and the exchange). */
export const WINDOW_SLACK_MS = 50;
/**
 * The order-entry window's edge. It counts an order's second from Bybit's own answer stamp
 * (`ExchangeClock`), or from our reading of the answer, both after the exchange counted the order:
 * no timer or clock granularity is left to cover, only the drift of two clocks over seconds.
 */
export const ORDER_ENTRY_SLACK_MS = 5;

/**
 * The share of an address's HTTP window that background work (the periodic key and wallet sync of
 * every customer, `LimiterRequest.background`) may hold at once: trading always finds the rest free, so
 * an alert's price read and its orders never queue behind thousands of wallet reads.
 */
export const BACKGROUND_SHARE = 0.25;

/** What background work may hold of a window of `limit` (BACKGROUND_SHARE): of this process's part, so of the address's ceiling across processes too. */
const backgroundLimit = (limit: number) => Math.floor(limit * BACKGROUND_SHARE);

/** One exchange's per-address window in this process, its background part, and its requests in flight. */
interface IpBucket {
  exchange: ExchangeId;
  egress: string;
  window: SlidingWindow;
  background: SlidingWindow;
  inFlight: Semaphore;
}

export interface LimiterRequest {
  exchange: ExchangeId;
  /** The outgoing address the request leaves from; one process usually has one. */
  egress: string;
  /** The exchange API key, for the per-account ceilings (only a hash of it is kept). */
  apiKey?: string | undefined;
  /** What the request writes, if anything: see `writeKind`. */
  write: WriteKind | undefined;
  /** A read with a per-account ceiling of its own: see `readKind`. */
  read?: ReadKind | undefined;
  /**
   * Epoch ms after which the request is useless (an entry): refused, unsent, once it has passed or when
   * a ban outlasts it.
   */
  deadline?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Background work's request (see BACKGROUND_SHARE). */
  background?: boolean | undefined;
  /**
   * `websocket`: an order over the exchange's WebSocket order entry. It takes the account's order slot
   * (shared with REST, as the exchange counts them together) and the address's order-entry window
   * instead of the HTTP window and socket cap; an HTTP address ban does not hold it (another host).
   */
  channel?: 'http' | 'websocket' | undefined;
}

export interface LimiterStats {
  perIp: Record<string, WindowStats & { inFlight: number; maxWaitingForSocket: number }>;
  /** Aggregated over every account bucket of writes (orders and settings). */
  perAccountOrders: AccountBucketStats;
  /** Aggregated over every account bucket of limited reads. */
  perAccountReads: AccountBucketStats;
}

export interface AccountBucketStats {
  accounts: number;
  granted: number;
  delayed: number;
  waiting: number;
  maxWaitMs: number;
  totalWaitMs: number;
}

type AccountBucketKind = WriteKind | ReadKind;

/** A request past its deadline is not sent: a late entry is worse than none (ENTRY_DEADLINE_MS). */
function refuseIfLate(request: LimiterRequest): void {
  if (request.deadline === undefined || Date.now() < request.deadline) return;
  throw new ExchangeFailure(
    'deadline',
    false,
    `${exchangeNames[request.exchange]} was not sent this request: its deadline passed while it waited for the exchange's rate limits or the end of a ban`,
  );
}

/**
 * The request's own signal, aborted as well when its deadline passes: made on first use, as only a
 * request that has to wait needs it (a timer per request would outlive most of them by the whole deadline).
 */
function deadlineSignal(request: LimiterRequest): () => AbortSignal | undefined {
  let made = false;
  let signal: AbortSignal | undefined;
  return () => {
    if (made) return signal;
    made = true;
    if (request.deadline === undefined) signal = request.signal;
    else {
      const timeout = AbortSignal.timeout(Math.max(0, request.deadline - Date.now()));
      signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    }
    return signal;
  };
}

/** A slot of the window: at once when one is free, else in turn (leaving the queue when the signal aborts). */
const slotOf = (window: SlidingWindow, signal: () => AbortSignal | undefined): GrantDone | Promise<GrantDone> => window.tryAcquire() ?? window.acquire(signal());

/** The grants one request holds: released together, last taken first, once. */
class HeldGrants {
  private readonly held: GrantDone[] = [];

  hold(done: GrantDone | ProbeAnswered | undefined): void {
    if (done) this.held.push(done);
  }

  release(answeredAt?: number): void {
    for (const done of this.held.splice(0).reverse()) done(answeredAt);
  }
}

export class ExchangeRateLimiter {
  private readonly ipWindows = new Map<string, IpBucket>();
  private readonly accountWindows = new Map<string, { window: SlidingWindow; lastUsed: number; write: boolean }>();
  private readonly orderEntryWindows = new Map<string, SlidingWindow>();
  /** This process's part of each address's order-entry window (`shareOrderEntry`); absent: all of it. */
  private readonly orderEntryShares = new Map<string, number>();

  constructor(
    readonly ceilings: Record<ExchangeId, ExchangeCeilings> = DEFAULT_CEILINGS,
    private readonly slackMs: number = WINDOW_SLACK_MS,
    readonly bans: AddressBans = new AddressBans(),
    private budget: EgressBudget | undefined = undefined,
  ) {}

  /**
   * Shares each address's per-IP ceiling with the other processes on it (`npm start`, `npm run worker`):
   * from now on each of this process's per-IP windows holds this process's part of its address's ceiling.
   */
  shareBudget(budget: EgressBudget | undefined): void {
    if (this.budget === budget) return;
    void this.budget?.stop?.();
    this.budget = budget;
    for (const bucket of this.ipWindows.values()) this.shareWindow(bucket);
  }

  /** Starts sharing the address's window now (a process's own address), so its first request does not wait for its part. */
  openAddress(exchange: ExchangeId, egress: string): void {
    this.ipBucket(exchange, egress);
  }

  /**
   * Resolves when the request may be sent, with the function to call when its answer (or failure)
   * is in (over the order-entry socket, with the answer's time where known): every grant's slot stays
   * taken until then. Waiters are served in arrival order. Nothing is
   * granted while the address is banned (checked again after the windows: a ban may start meanwhile).
   */
  async acquire(request: LimiterRequest): Promise<GrantDone> {
    refuseIfLate(request);
    if (request.channel !== 'websocket') await this.bans.clear(request.exchange, request.egress, request.deadline);
    const grants = new HeldGrants();
    try {
      // A request with a deadline leaves the windows' queues when it passes (it is not sent at all).
      await this.takeSlots(request, deadlineSignal(request), grants);
      refuseIfLate(request);
    } catch (error) {
      grants.release();
      refuseIfLate(request);
      throw error;
    }
    return (answeredAt) => grants.release(answeredAt);
  }

  /** Every slot the request needs, in order, each held in `grants` as soon as it is taken. */
  private async takeSlots(request: LimiterRequest, signal: () => AbortSignal | undefined, grants: HeldGrants): Promise<void> {
    const kind: AccountBucketKind | undefined = request.write ?? request.read;
    const account = kind && request.apiKey ? this.accountWindow(request.exchange, request.apiKey, kind) : undefined;
    if (account) grants.hold(await slotOf(account, signal));
    if (request.channel === 'websocket') {
      const entries = this.orderEntryWindow(request.exchange, request.egress);
      if (entries) grants.hold(await slotOf(entries, signal));
      return;
    }
    const ip = this.ipBucket(request.exchange, request.egress);
    if (request.background) grants.hold(await slotOf(ip.background, signal));
    grants.hold(await ip.inFlight.acquire());
    grants.hold(ip.window.tryAcquire() ?? (await this.waitForIpSlot(request, ip, signal)));
    // A request granted before a ban, waiting here for its end, keeps its slot: it is counted when it goes.
    grants.hold(await this.bans.sendable(request.exchange, request.egress, request.deadline));
  }

  /** This process's part of the address's window is spent: the others hear that it wants more, and it waits its turn. */
  private waitForIpSlot(request: LimiterRequest, ip: IpBucket, signal: () => AbortSignal | undefined): Promise<GrantDone> {
    this.budget?.expect?.(request.exchange, request.egress, 1);
    return ip.window.acquire(signal());
  }

  private orderEntryWindow(exchange: ExchangeId, egress: string): SlidingWindow | undefined {
    const ceiling = this.ceilings[exchange].perIpOrderEntry;
    if (!ceiling) return undefined;
    const key = `${exchange}:${egress}`;
    let window = this.orderEntryWindows.get(key);
    if (!window) {
      window = new SlidingWindow(this.orderEntryLimit(ceiling, key), ceiling.windowMs + Math.min(this.slackMs, ORDER_ENTRY_SLACK_MS));
      this.orderEntryWindows.set(key, window);
    }
    return window;
  }

  private orderEntryLimit(ceiling: Ceiling, key: string): number {
    return Math.max(1, Math.floor(ceiling.limit * (this.orderEntryShares.get(key) ?? 1)));
  }

  /**
   * This process's part (0 to 1) of the address's order-entry window. The exchange counts the socket
   * orders of every process on the address together, so the processes sending them split it
   * (accounts/order-entry-share.ts); 0 closes this process's socket path (`orderEntryOpen`).
   */
  shareOrderEntry(exchange: ExchangeId, egress: string, share: number): void {
    if (!(share >= 0 && share <= 1)) throw new RangeError(`an order-entry share is between 0 and 1, got ${share}`);
    const key = `${exchange}:${egress}`;
    this.orderEntryShares.set(key, share);
    const ceiling = this.ceilings[exchange].perIpOrderEntry;
    const window = this.orderEntryWindows.get(key);
    if (ceiling && window) window.resize(this.orderEntryLimit(ceiling, key));
  }

  /** False while this process holds no part of the address's order-entry window: its orders go over REST. */
  orderEntryOpen(exchange: ExchangeId, egress: string): boolean {
    return this.orderEntryShares.get(`${exchange}:${egress}`) !== 0;
  }

  /**
   * `count` HTTP requests to `exchange` are about to leave `egress` (the entries of an alert): when this
   * process's part of the address's window cannot take them, the other processes hear at once that it wants more.
   */
  prepare(exchange: ExchangeId, egress: string, count: number): void {
    if (count > 0) this.budget?.expect?.(exchange, egress, count);
  }

  /** Records an address ban the exchange answered (Bybit HTTP 403); true when it starts a new one. */
  reportAddressBan(exchange: ExchangeId, egress: string, reason: string): boolean {
    return this.bans.report(exchange, egress, reason);
  }

  /** Hears of every new address ban once (to audit it and tell staff); answers the unsubscribe function. */
  onAddressBan(listener: AddressBanListener): () => void {
    return this.bans.onBan(listener);
  }

  stats(): LimiterStats {
    const perIp: LimiterStats['perIp'] = {};
    for (const [key, { window, inFlight }] of this.ipWindows) perIp[key] = { ...window.snapshot(), inFlight: inFlight.inUse, maxWaitingForSocket: inFlight.maxWaiting };
    const empty = (): AccountBucketStats => ({ accounts: 0, granted: 0, delayed: 0, waiting: 0, maxWaitMs: 0, totalWaitMs: 0 });
    const perAccountOrders = empty();
    const perAccountReads = empty();
    for (const { window, write } of this.accountWindows.values()) {
      const s = window.snapshot();
      const into = write ? perAccountOrders : perAccountReads;
      into.accounts += 1;
      into.granted += s.granted;
      into.delayed += s.delayed;
      into.waiting += s.waiting;
      into.totalWaitMs += s.totalWaitMs;
      into.maxWaitMs = Math.max(into.maxWaitMs, s.maxWaitMs);
    }
    return { perIp, perAccountOrders, perAccountReads };
  }

  private ipBucket(exchange: ExchangeId, egress: string): IpBucket {
    const key = `${exchange}:${egress}`;
    let bucket = this.ipWindows.get(key);
    if (!bucket) {
      const { perIp, maxInFlight } = this.ceilings[exchange];
      const windowMs = perIp.windowMs + this.slackMs;
      bucket = {
        exchange,
        egress,
        window: new SlidingWindow(perIp.limit, windowMs),
        background: new SlidingWindow(backgroundLimit(perIp.limit), windowMs),
        inFlight: new Semaphore(maxInFlight),
      };
      this.ipWindows.set(key, bucket);
      this.shareWindow(bucket);
    }
    return bucket;
  }

  /** The address's window (and its background part with it) sized by the shared budget, when there is one. */
  private shareWindow(bucket: IpBucket): void {
    const { window, background } = bucket;
    const shared: SharedWindow = {
      resize(limit) {
        window.resize(limit);
        background.resize(backgroundLimit(limit));
      },
      usage() {
        const { inWindow, waiting, delayed } = window.snapshot();
        // Background requests waiting for their quarter want the window too: counted, the part grows with them.
        return { inWindow, waiting: waiting + background.snapshot().waiting, delayed };
      },
    };
    if (this.budget) this.budget.share(bucket.exchange, bucket.egress, this.ceilings[bucket.exchange].perIp, shared);
    else shared.resize(this.ceilings[bucket.exchange].perIp.limit);
  }

  private accountCeiling(exchange: ExchangeId, kind: AccountBucketKind): Ceiling | undefined {
    const ceilings = this.ceilings[exchange];
    if (kind === 'order') return ceilings.perAccountOrders;
    if (kind === 'setting') return ceilings.perAccountSettings;
    return ceilings.perAccountReads?.[kind];
  }

  private accountWindow(exchange: ExchangeId, apiKey: string, kind: AccountBucketKind): SlidingWindow | undefined {
    const ceiling = this.accountCeiling(exchange, kind);
    if (!ceiling) return undefined;
    const key = `${exchange}:${kind}:${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
    const now = performance.now();
    let entry = this.accountWindows.get(key);
    if (!entry) {
      entry = { window: new SlidingWindow(ceiling.limit, ceiling.windowMs + this.slackMs), lastUsed: now, write: kind === 'order' || kind === 'setting' };
      this.accountWindows.set(key, entry);
      if (this.accountWindows.size % 1024 === 0) this.forgetIdleAccounts(now);
    }
    entry.lastUsed = now;
    return entry.window;
  }

  /** Account buckets idle for a minute hold nothing worth keeping. */
  private forgetIdleAccounts(now: number): void {
    for (const [key, entry] of this.accountWindows) {
      if (now - entry.lastUsed > 60_000 && entry.window.snapshot().waiting === 0) this.accountWindows.delete(key);
    }
  }
}

/** The limiter every adapter of this process shares unless told otherwise. */
export const sharedExchangeLimiter = new ExchangeRateLimiter();
