import { Semaphore } from '../semaphore';
import type { Credentials } from '../types';
import { sharedConnectionBudget, type ConnectionBudget } from './connection-budget';
import type { ExchangeClock } from './exchange-clock';
import { TradeAuthRefused, TradeSocket } from './trade-socket';

export interface TradeSessionsOptions {
  /** wss://stream.bybit.com/v5/trade (live), the testnet's, or the sandbox's ws://.../v5/trade. */
  url: string;
  /** The egress address's name: the key of the new-connection budget. */
  egress: string;
  /** Bind new connections to this local address (a host with several egress addresses). */
  localAddress?: string | undefined;
  budget?: ConnectionBudget | undefined;
  pingIntervalMs?: number | undefined;
  connectTimeoutMs?: number | undefined;
  /** Connections being opened at once (a warm-up of thousands is spread, not a thundering herd). */
  openConcurrency?: number | undefined;
  /** Reopening delays: doubled per failure from minMs up to maxMs (a refused key starts at maxMs). */
  backoff?: { minMs: number; maxMs: number } | undefined;
  /** Learns the exchange's time from the sessions' pongs (the order entry's clock). */
  clock?: ExchangeClock | undefined;
}

export interface SessionStats {
  /** Accounts asked to be warm. */
  wanted: number;
  open: number;
  /** Waiting to (re)open: for the new-connection budget, or backing off after a failure. */
  waiting: number;
  /** Connections opened since start (first ones and reopenings). */
  opened: number;
  failures: number;
}

interface Session {
  credentials: Credentials;
  socket: TradeSocket | undefined;
  opening: boolean;
  failures: number;
  timer: NodeJS.Timeout | undefined;
}

export const TRADE_PING_INTERVAL_MS = 20_000;
const DEFAULT_BACKOFF = { minMs: 1_000, maxMs: 60_000 };

/**
 * One authenticated Bybit /v5/trade session per account, opened ahead of alerts (`warm`) and kept open:
 * pinged, and reopened after a drop with backoff, never faster than the address's new-connection budget
 * allows (500 per 5 minutes). Accounts whose session is not open meanwhile trade over REST.
 */
export class BybitTradeSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly opening: Semaphore;
  private readonly budget: ConnectionBudget;
  private readonly backoff: { minMs: number; maxMs: number };
  private opened = 0;
  private failures = 0;
  private closed = false;

  constructor(private readonly options: TradeSessionsOptions) {
    this.opening = new Semaphore(options.openConcurrency ?? 32);
    this.budget = options.budget ?? sharedConnectionBudget;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  /**
   * Opens a session for each account that has none (a changed secret replaces the old one). Resolves
   * once each has had its first attempt: open, or waiting for the budget or a backoff (it opens later).
   */
  async warm(accounts: readonly Credentials[]): Promise<SessionStats> {
    this.closed = false;
    const attempts: Array<Promise<void>> = [];
    for (const credentials of accounts) {
      const existing = this.sessions.get(credentials.apiKey);
      if (existing && existing.credentials.secret === credentials.secret) continue;
      if (existing) this.forget(existing);
      const session: Session = { credentials: { apiKey: credentials.apiKey, secret: credentials.secret }, socket: undefined, opening: false, failures: 0, timer: undefined };
      this.sessions.set(credentials.apiKey, session);
      attempts.push(this.connect(session));
    }
    await Promise.all(attempts);
    return this.stats();
  }

  /** The account's open session, if it has one now. */
  ready(credentials: Credentials): TradeSocket | undefined {
    const session = this.sessions.get(credentials.apiKey);
    return session?.socket?.isOpen && session.credentials.secret === credentials.secret ? session.socket : undefined;
  }

  /** Closes the sessions of these accounts (all when none given); they are not reopened. */
  close(accounts?: readonly Credentials[]): void {
    if (!accounts) this.closed = true;
    const chosen = accounts ? accounts.map((a) => this.sessions.get(a.apiKey)).filter((s): s is Session => s !== undefined) : [...this.sessions.values()];
    for (const session of chosen) this.forget(session);
  }

  stats(): SessionStats {
    let open = 0;
    for (const session of this.sessions.values()) if (session.socket?.isOpen) open += 1;
    return { wanted: this.sessions.size, open, waiting: this.sessions.size - open, opened: this.opened, failures: this.failures };
  }

  private wanted(session: Session): boolean {
    return !this.closed && this.sessions.get(session.credentials.apiKey) === session;
  }

  private forget(session: Session): void {
    if (this.sessions.get(session.credentials.apiKey) === session) this.sessions.delete(session.credentials.apiKey);
    clearTimeout(session.timer);
    session.socket?.close();
    session.socket = undefined;
  }

  private async connect(session: Session): Promise<void> {
    session.timer = undefined;
    if (!this.wanted(session) || session.opening || session.socket) return;
    session.opening = true;
    const release = await this.opening.acquire();
    try {
      const wait = this.budget.waitMs(this.options.egress);
      if (wait > 0 || !this.wanted(session)) {
        if (this.wanted(session)) this.retry(session, wait);
        return;
      }
      this.budget.take(this.options.egress);
      await this.budget.cleared(this.options.egress);
      if (!this.wanted(session)) return;
      const socket = await TradeSocket.open({
        url: this.options.url,
        apiKey: session.credentials.apiKey,
        secret: session.credentials.secret,
        localAddress: this.options.localAddress,
        pingIntervalMs: this.options.pingIntervalMs ?? TRADE_PING_INTERVAL_MS,
        connectTimeoutMs: this.options.connectTimeoutMs ?? 5_000,
        clock: this.options.clock,
      });
      this.opened += 1;
      if (!this.wanted(session)) {
        socket.close();
        return;
      }
      session.socket = socket;
      session.failures = 0;
      socket.onClose(() => {
        session.socket = undefined;
        if (this.wanted(session)) this.retry(session, this.delayAfter(session, false));
      });
    } catch (error) {
      this.failures += 1;
      if (this.wanted(session)) this.retry(session, this.delayAfter(session, error instanceof TradeAuthRefused));
    } finally {
      session.opening = false;
      release();
    }
  }

  private delayAfter(session: Session, refused: boolean): number {
    session.failures += 1;
    const base = refused ? this.backoff.maxMs : Math.min(this.backoff.maxMs, this.backoff.minMs * 2 ** (session.failures - 1));
    // Up to 20% jitter: sessions dropped together do not all come back in the same instant.
    return Math.round(base * (1 + Math.random() * 0.2));
  }

  private retry(session: Session, delayMs: number): void {
    clearTimeout(session.timer);
    session.timer = setTimeout(() => void this.connect(session), delayMs);
    session.timer.unref();
  }
}
