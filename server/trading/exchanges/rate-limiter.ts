import { createHash } from 'node:crypto';
import { Semaphore } from './semaphore';
import { SlidingWindow, type GrantDone, type WindowStats } from './sliding-window';
import type { ExchangeId } from './types';

/**
 * The process-wide limiter in front of every exchange request (ccxt's own per-instance limiter is
 * switched off). Two kinds of ceiling, both sliding windows:
 * - per exchange and egress address: Bybit 600 requests / 5 s, Bitget 6000 / minute (EXCHANGES 2.6, 3.6);
 * - per exchange account: 10 order writes / s (create, cancel, TP/SL) and a settings ceiling for
 *   leverage, position- and margin-mode changes (Bybit 10 / s, Bitget 5 / s).
 * We plan below the exchanges' numbers (DEFAULT_CEILINGS: 95% per IP, 9 of 10 orders per account):
 * our clock is not the exchange's, and a slot is held from the grant until a window after the
 * answer (see SlidingWindow), so a late arrival can never be counted with the next window's grants.
 * Requests in flight per exchange and egress are capped too: a request is signed when it is granted,
 * and a thousand signed requests queued in sockets would arrive after Bybit's 5 s receive window.
 */
export interface Ceiling {
  limit: number;
  windowMs: number;
}

export interface ExchangeCeilings {
  perIp: Ceiling;
  /** Requests in flight at once per egress address. */
  maxInFlight: number;
  perAccountOrders: Ceiling;
  perAccountSettings: Ceiling;
}

/** The exchanges' ceilings (EXCHANGES 2.6, 3.6) and the share of each we plan to use. */
export const EXCHANGE_CEILINGS = {
  bybit: { perIp: { limit: 600, windowMs: 5_000 }, perAccountOrders: { limit: 10, windowMs: 1_000 }, perAccountSettings: { limit: 10, windowMs: 1_000 } },
  bitget: { perIp: { limit: 6_000, windowMs: 60_000 }, perAccountOrders: { limit: 10, windowMs: 1_000 }, perAccountSettings: { limit: 5, windowMs: 1_000 } },
} as const satisfies Record<ExchangeId, Omit<ExchangeCeilings, 'maxInFlight'>>;
export const PLANNED_SHARE = 0.95;

const planned = ({ limit, windowMs }: Ceiling, share = PLANNED_SHARE): Ceiling => ({ limit: Math.max(1, Math.min(limit - 1, Math.floor(limit * share))), windowMs });

/** What the limiter grants: Bybit 570 / 5 s and Bitget 5,700 / min per IP; 9 orders / s per account. */
export const DEFAULT_CEILINGS: Record<ExchangeId, ExchangeCeilings> = {
  bybit: {
    perIp: planned(EXCHANGE_CEILINGS.bybit.perIp),
    maxInFlight: 48,
    perAccountOrders: planned(EXCHANGE_CEILINGS.bybit.perAccountOrders),
    perAccountSettings: planned(EXCHANGE_CEILINGS.bybit.perAccountSettings),
  },
  bitget: {
    perIp: planned(EXCHANGE_CEILINGS.bitget.perIp),
    maxInFlight: 48,
    perAccountOrders: planned(EXCHANGE_CEILINGS.bitget.perAccountOrders),
    perAccountSettings: planned(EXCHANGE_CEILINGS.bitget.perAccountSettings),
  },
};

/** Spacing added to each window's edge (timer and clock granularity between us and the exchange). */
export const WINDOW_SLACK_MS = 50;

export interface LimiterRequest {
  exchange: ExchangeId;
  /** The outgoing address the request leaves from; one process usually has one. */
  egress: string;
  /** The exchange API key, for the per-account ceilings (only a hash of it is kept). */
  apiKey?: string | undefined;
  /** What the request writes, if anything: see `writeKind`. */
  write: WriteKind | undefined;
  signal?: AbortSignal | undefined;
}

export interface LimiterStats {
  perIp: Record<string, WindowStats & { inFlight: number; maxWaitingForSocket: number }>;
  /** Aggregated over every account bucket (orders and settings). */
  perAccountOrders: { accounts: number; granted: number; delayed: number; waiting: number; maxWaitMs: number; totalWaitMs: number };
}

export type WriteKind = 'order' | 'setting';

const ORDER_PATHS: Record<ExchangeId, RegExp> = {
  bybit: /^v5\/(order\/(create|amend|cancel|create-batch|amend-batch|cancel-batch|cancel-all)|position\/trading-stop)$/,
  bitget: /^v2\/mix\/order\/(place-order|place-plan-order|place-tpsl-order|place-pos-tpsl|cancel-order|cancel-plan-order|close-positions|modify-order|modify-tpsl-order|batch-place-order|batch-cancel-orders)$/,
};
const SETTING_PATHS: Record<ExchangeId, RegExp> = {
  bybit: /^v5\/(position\/(set-leverage|switch-mode|set-tpsl-mode)|account\/set-margin-mode)$/,
  bitget: /^v2\/mix\/account\/(set-leverage|set-position-mode|set-margin-mode)$/,
};

/** Whether a ccxt request path (e.g. 'v5/order/create', 'v2/mix/order/place-order') writes orders or account settings. */
export function writeKind(exchange: ExchangeId, path: string): WriteKind | undefined {
  const bare = path.replace(/^\/?(api\/)?/, '');
  if (ORDER_PATHS[exchange].test(bare)) return 'order';
  if (SETTING_PATHS[exchange].test(bare)) return 'setting';
  return undefined;
}

export class ExchangeRateLimiter {
  private readonly ipWindows = new Map<string, { window: SlidingWindow; inFlight: Semaphore }>();
  private readonly accountWindows = new Map<string, { window: SlidingWindow; lastUsed: number }>();

  constructor(
    readonly ceilings: Record<ExchangeId, ExchangeCeilings> = DEFAULT_CEILINGS,
    private readonly slackMs: number = WINDOW_SLACK_MS,
  ) {}

  /**
   * Resolves when the request may be sent, with the function to call when its answer (or failure)
   * is in: every grant's slot stays taken until then. Waiters are served in arrival order.
   */
  async acquire(request: LimiterRequest): Promise<() => void> {
    const accountDone = request.write && request.apiKey ? await this.accountWindow(request.exchange, request.apiKey, request.write).acquire(request.signal) : undefined;
    const ip = this.ipBucket(request.exchange, request.egress);
    const releaseSocket = await ip.inFlight.acquire();
    let ipDone: GrantDone;
    try {
      ipDone = await ip.window.acquire(request.signal);
    } catch (error) {
      releaseSocket();
      accountDone?.();
      throw error;
    }
    return () => {
      ipDone();
      accountDone?.();
      releaseSocket();
    };
  }

  stats(): LimiterStats {
    const perIp: LimiterStats['perIp'] = {};
    for (const [key, { window, inFlight }] of this.ipWindows) perIp[key] = { ...window.snapshot(), inFlight: inFlight.inUse, maxWaitingForSocket: inFlight.maxWaiting };
    const perAccountOrders = { accounts: this.accountWindows.size, granted: 0, delayed: 0, waiting: 0, maxWaitMs: 0, totalWaitMs: 0 };
    for (const { window } of this.accountWindows.values()) {
      const s = window.snapshot();
      perAccountOrders.granted += s.granted;
      perAccountOrders.delayed += s.delayed;
      perAccountOrders.waiting += s.waiting;
      perAccountOrders.totalWaitMs += s.totalWaitMs;
      perAccountOrders.maxWaitMs = Math.max(perAccountOrders.maxWaitMs, s.maxWaitMs);
    }
    return { perIp, perAccountOrders };
  }

  private ipBucket(exchange: ExchangeId, egress: string): { window: SlidingWindow; inFlight: Semaphore } {
    const key = `${exchange}:${egress}`;
    let bucket = this.ipWindows.get(key);
    if (!bucket) {
      const { perIp, maxInFlight } = this.ceilings[exchange];
      bucket = { window: new SlidingWindow(perIp.limit, perIp.windowMs + this.slackMs), inFlight: new Semaphore(maxInFlight) };
      this.ipWindows.set(key, bucket);
    }
    return bucket;
  }

  private accountWindow(exchange: ExchangeId, apiKey: string, write: WriteKind): SlidingWindow {
    const key = `${exchange}:${write}:${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
    const now = performance.now();
    let entry = this.accountWindows.get(key);
    if (!entry) {
      const { limit, windowMs } = write === 'order' ? this.ceilings[exchange].perAccountOrders : this.ceilings[exchange].perAccountSettings;
      entry = { window: new SlidingWindow(limit, windowMs + this.slackMs), lastUsed: now };
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
