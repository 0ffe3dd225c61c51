import { Semaphore } from './semaphore';
import type { Credentials } from './types';
import type { ConnectionBudget } from './bybit-ws/connection-budget';

/** A connection one account keeps open: a trade session or a private stream. */
export interface KeptSocket {
  readonly isOpen: boolean;
  close(): void;
  /** Called once when the connection closes, whatever the reason. */
  onClose(listener: () => void): void;
}

export interface KeptSocketsOptions<S extends KeptSocket> {
  /** Opens (and authenticates) one account's connection; rejects when it cannot. */
  open(credentials: Credentials): Promise<S>;
  /** Whether a failure to open means the exchange refused the key (reopening then waits the longest). */
  refused(error: unknown): boolean;
  /** The egress address's name: the key of the new-connection budget. */
  egress: string;
  /** New connections per address (Bybit: 500 per 5 minutes for every stream.bybit.com connection). */
  budget?: ConnectionBudget | undefined;
  /** Connections being opened at once (a warm-up of thousands is spread, not a thundering herd). */
  openConcurrency?: number | undefined;
  /** Reopening delays: doubled per failure from minMs up to maxMs (a refused key starts at maxMs). */
  backoff?: { minMs: number; maxMs: number } | undefined;
  /** Called after each (re)opening, before the socket counts as open to `ready`. */
  opened?: ((credentials: Credentials, socket: S) => void) | undefined;
  /** Called when an open socket closed (it is reopened after its backoff). */
  lost?: ((credentials: Credentials) => void) | undefined;
}

export interface KeptStats {
  /** Accounts asked to be kept. */
  wanted: number;
  open: number;
  /** Waiting to (re)open: for the new-connection budget, or backing off after a failure. */
  waiting: number;
  /** Connections opened since start (first ones and reopenings). */
  opened: number;
  failures: number;
}

interface Kept<S> {
  credentials: Credentials;
  socket: S | undefined;
  opening: boolean;
  failures: number;
  timer: NodeJS.Timeout | undefined;
}

const DEFAULT_BACKOFF = { minMs: 1_000, maxMs: 60_000 };

/**
 * One connection per account, opened ahead of need (`warm`) and kept open: reopened after a drop with
 * backoff, never faster than the address's new-connection budget allows. Keyed by API key.
 */
export class KeptSockets<S extends KeptSocket> {
  private readonly kept = new Map<string, Kept<S>>();
  private readonly opening: Semaphore;
  private readonly backoff: { minMs: number; maxMs: number };
  private opened = 0;
  private failures = 0;
  private closed = false;

  constructor(private readonly options: KeptSocketsOptions<S>) {
    this.opening = new Semaphore(options.openConcurrency ?? 32);
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
  }

  /**
   * Opens a connection for each account that has none (a changed secret replaces the old one). Resolves
   * once each has had its first attempt: open, or waiting for the budget or a backoff (it opens later).
   */
  async warm(accounts: readonly Credentials[]): Promise<KeptStats> {
    this.closed = false;
    const attempts: Array<Promise<void>> = [];
    for (const credentials of accounts) {
      const existing = this.kept.get(credentials.apiKey);
      if (existing && existing.credentials.secret === credentials.secret) continue;
      if (existing) this.forget(existing);
      const entry: Kept<S> = { credentials: { ...credentials, background: undefined }, socket: undefined, opening: false, failures: 0, timer: undefined };
      this.kept.set(credentials.apiKey, entry);
      attempts.push(this.connect(entry));
    }
    await Promise.all(attempts);
    return this.stats();
  }

  /** The account's open connection, if it has one now. */
  ready(credentials: Credentials): S | undefined {
    const entry = this.kept.get(credentials.apiKey);
    return entry?.socket?.isOpen && entry.credentials.secret === credentials.secret ? entry.socket : undefined;
  }

  /** Whether the account is kept (open or waiting to reopen). */
  has(credentials: Credentials): boolean {
    return this.kept.has(credentials.apiKey);
  }

  /** Closes the connections of these accounts (all when none given); they are not reopened. */
  close(accounts?: readonly Credentials[]): void {
    if (!accounts) this.closed = true;
    const chosen = accounts ? accounts.map((a) => this.kept.get(a.apiKey)).filter((s): s is Kept<S> => s !== undefined) : [...this.kept.values()];
    for (const entry of chosen) this.forget(entry);
  }

  stats(): KeptStats {
    let open = 0;
    for (const entry of this.kept.values()) if (entry.socket?.isOpen) open += 1;
    return { wanted: this.kept.size, open, waiting: this.kept.size - open, opened: this.opened, failures: this.failures };
  }

  private wanted(entry: Kept<S>): boolean {
    return !this.closed && this.kept.get(entry.credentials.apiKey) === entry;
  }

  private forget(entry: Kept<S>): void {
    if (this.kept.get(entry.credentials.apiKey) === entry) this.kept.delete(entry.credentials.apiKey);
    clearTimeout(entry.timer);
    entry.socket?.close();
    entry.socket = undefined;
  }

  /** Waits its turn in the address's new-connection budget; false when it must come back later (rescheduled). */
  private async budgetAllows(entry: Kept<S>): Promise<boolean> {
    const { budget, egress } = this.options;
    if (!budget) return true;
    const wait = budget.waitMs(egress);
    if (wait > 0 || !this.wanted(entry)) {
      if (this.wanted(entry)) this.retry(entry, wait);
      return false;
    }
    budget.take(egress);
    await budget.cleared(egress);
    return this.wanted(entry);
  }

  private async connect(entry: Kept<S>): Promise<void> {
    entry.timer = undefined;
    if (!this.wanted(entry) || entry.opening || entry.socket) return;
    entry.opening = true;
    const release = await this.opening.acquire();
    try {
      if (!(await this.budgetAllows(entry))) return;
      const socket = await this.options.open(entry.credentials);
      this.opened += 1;
      if (!this.wanted(entry)) {
        socket.close();
        return;
      }
      entry.failures = 0;
      this.options.opened?.(entry.credentials, socket);
      entry.socket = socket;
      const lost = () => {
        entry.socket = undefined;
        if (!this.wanted(entry)) return;
        this.options.lost?.(entry.credentials);
        this.retry(entry, this.delayAfter(entry, false));
      };
      socket.onClose(lost);
      // Closed before its listener was in place: it would never be reopened otherwise.
      if (!socket.isOpen) lost();
    } catch (error) {
      this.failures += 1;
      if (this.wanted(entry)) this.retry(entry, this.delayAfter(entry, this.options.refused(error)));
    } finally {
      entry.opening = false;
      release();
    }
  }

  private delayAfter(entry: Kept<S>, refused: boolean): number {
    entry.failures += 1;
    const base = refused ? this.backoff.maxMs : Math.min(this.backoff.maxMs, this.backoff.minMs * 2 ** (entry.failures - 1));
    // Up to 20% jitter: connections dropped together do not all come back in the same instant.
    return Math.round(base * (1 + Math.random() * 0.2));
  }

  private retry(entry: Kept<S>, delayMs: number): void {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => void this.connect(entry), delayMs);
    entry.timer.unref();
  }
}
