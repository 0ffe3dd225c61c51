import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { ChannelListener } from '../../db/channel-listener';
import type { AuthContext } from '../../http/route';

/** Migration session_change_notify sends `a:<accountId>` here when a session or an account's sign-in state changes. */
export const SESSION_CHANNEL = 'session_changes';
const ACCOUNT_PREFIX = 'a:';
const SETTLE_PREFIX = 's:';
/** Resolved sessions kept per process; the least recently used goes first. */
export const SESSION_CACHE_MAX = 10_000;
/** A write that waits longer than this for its own commit to come back clears the whole cache instead. */
const SETTLE_TIMEOUT_MS = 2_000;

interface Entry {
  auth: AuthContext;
  accountId: number;
  expiresAtMs: number;
}

/**
 * Resolved sessions (token hash -> caller) of this process, exact: PostgreSQL tells every process
 * (LISTEN/NOTIFY, sent by triggers on sessions and accounts at commit) which account's sessions
 * changed, and it drops them. Nothing is cached while the LISTEN connection is down: a process
 * that lost it clears the cache and reads every session through until it listens again.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byAccount = new Map<number, Set<string>>();
  private readonly settling = new Map<string, () => void>();
  private readonly listener: ChannelListener;
  /** Moves on every drop: a read that began before a drop must not cache what it read. */
  private generation = 0;

  constructor(
    private readonly pool: pg.Pool,
    log: FastifyBaseLogger,
    private readonly max = SESSION_CACHE_MAX,
  ) {
    this.listener = new ChannelListener(pool.options, SESSION_CHANNEL, {
      message: (payload) => this.onMessage(payload),
      listening: () => this.clear(),
      lost: () => this.clear(),
    }, log, 'session cache');
  }

  /** Starts listening in the background; until it listens every session is read through. */
  start(): void {
    this.listener.start().catch(() => undefined);
  }

  stop(): Promise<void> {
    return this.listener.stop();
  }

  get size(): number {
    return this.entries.size;
  }

  get listening(): boolean {
    return this.listener.listening;
  }

  /** The LISTEN connection's backend pid (tests end it to see the cache read through). */
  get listenerPid(): number | undefined {
    return this.listener.backendPid;
  }

  /** The cached caller of a token hash, unless expired by `nowMs`. */
  get(tokenHash: string, nowMs: number): AuthContext | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= nowMs) {
      this.remove(tokenHash, entry.accountId);
      return undefined;
    }
    // Re-inserted: the map's order is the order of last use.
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, entry);
    return entry.auth;
  }

  /** Taken before reading a session from the database, handed back to `put`. */
  readTicket(): number {
    return this.generation;
  }

  /** Caches a session read from the database, unless something was dropped since its read began. */
  put(tokenHash: string, auth: AuthContext, expiresAt: Date, ticket: number): void {
    if (ticket !== this.generation || !this.listener.listening) return;
    this.remove(tokenHash, auth.accountId);
    if (this.entries.size >= this.max) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry];
      this.remove(oldest, entry.accountId);
    }
    this.entries.set(tokenHash, { auth, accountId: auth.accountId, expiresAtMs: expiresAt.getTime() });
    let tokens = this.byAccount.get(auth.accountId);
    if (!tokens) {
      tokens = new Set();
      this.byAccount.set(auth.accountId, tokens);
    }
    tokens.add(tokenHash);
  }

  /**
   * Called after a committed write that ends sessions or changes an account's status: resolves
   * once this process's LISTEN connection has passed that commit (notifications arrive in commit
   * order), so the writer's next request, and any other, reads the new state.
   */
  async settle(): Promise<void> {
    if (!this.listener.listening) return;
    const nonce = randomUUID();
    const passed = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), SETTLE_TIMEOUT_MS);
      this.settling.set(nonce, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    try {
      await this.pool.query('select pg_notify($1, $2)', [SESSION_CHANNEL, SETTLE_PREFIX + nonce]);
      if (!(await passed)) this.clear();
    } finally {
      this.settling.delete(nonce);
    }
  }

  private onMessage(payload: string): void {
    if (payload.startsWith(ACCOUNT_PREFIX)) return this.dropAccount(Number(payload.slice(ACCOUNT_PREFIX.length)));
    if (payload.startsWith(SETTLE_PREFIX)) this.settling.get(payload.slice(SETTLE_PREFIX.length))?.();
  }

  private dropAccount(accountId: number): void {
    this.generation += 1;
    for (const tokenHash of this.byAccount.get(accountId) ?? []) this.entries.delete(tokenHash);
    this.byAccount.delete(accountId);
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.byAccount.clear();
  }

  private remove(tokenHash: string, accountId: number): void {
    if (!this.entries.delete(tokenHash)) return;
    const tokens = this.byAccount.get(accountId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.byAccount.delete(accountId);
  }
}
