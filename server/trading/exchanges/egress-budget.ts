import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { AddressBan, AddressBans } from './address-ban';
import type { Ceiling } from './rate-limiter';
import type { ExchangeId } from './types';

/**
 * The per-address budget every process on one egress address (EXCHANGE_EGRESS) shares: an API server
 * and a worker on one address cannot exceed the exchange's ceiling together. Consulted by the
 * process's limiter right before a request goes out, after its own windows.
 */
export interface EgressBudget {
  /** Resolves when one request may leave `egress` for `exchange` under `ceiling` (shared by every process on that address). */
  take(exchange: ExchangeId, egress: string, ceiling: Ceiling, signal?: AbortSignal): Promise<void>;
  /**
   * `count` requests are about to leave: when this process holds fewer tokens and is not leasing, a
   * lease starts now, without waiting, so their `take` finds the tokens (or the lease under way).
   */
  prepare?(exchange: ExchangeId, egress: string, ceiling: Ceiling, count: number): void;
  /**
   * How another statement may lease tokens of this budget for this process (the SQL function
   * `lease_egress_tokens` with these terms), or undefined when it is not kept in PostgreSQL.
   */
  leaseTerms?(ceiling: Ceiling): LeaseTerms;
  /** Tokens such a statement leased for this process: held like its own until `msLeft` from now. */
  credit?(exchange: ExchangeId, egress: string, granted: number, msLeft: number): void;
  /** Stops sharing this process's bans (the limiter moved on to another budget). */
  stop?(): void;
}

/** The arguments of `lease_egress_tokens` besides the exchange, address and count. */
export interface LeaseTerms {
  limit: number;
  windowMs: number;
  slots: number;
  maxBatch: number;
}

/** Slots per window: the budget is counted over the last SLOTS + 1 of them. */
const SLOTS = 10;
/** Most tokens leased at once: one database round trip per this many requests at full speed. */
const MAX_BATCH = 20;

interface AddressState {
  tokens: number;
  /** performance.now() at which leftover tokens lapse (the end of the slot they were counted in). */
  expiresAt: number;
  waiting: number;
  leasing: Promise<number> | undefined;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export interface SharedBans {
  /** This process's bans (its limiter's): new ones are written for the others, theirs are adopted. */
  bans: AddressBans;
  onError: (error: unknown) => void;
}

interface LeaseRow extends Record<string, unknown> {
  granted_now: number;
  ms_left: number;
  banned_since: string | null;
  banned_until: string | null;
  ban_reason: string | null;
}

/** Writes a new ban for the other processes on the address; an overlapping one is extended. */
async function publishBan(db: DbOrTx, ban: AddressBan): Promise<void> {
  await db.execute(sql`
    insert into egress_bans (exchange, egress, since, until, reason)
    values (${ban.exchange}, ${ban.egress}, ${new Date(ban.since)}, ${new Date(ban.until)}, ${ban.reason})
    on conflict (exchange, egress) do update set
      since = case when egress_bans.until < excluded.since then excluded.since else egress_bans.since end,
      until = greatest(egress_bans.until, excluded.until),
      reason = case when egress_bans.until < excluded.since then excluded.reason else egress_bans.reason end`);
}

/**
 * PostgreSQL token leasing in batches (`lease_egress_tokens`, migration 0018): a process takes up to
 * MAX_BATCH tokens of the current slot in one round trip and spends them locally, so the hot path has
 * no database round trip per request. Tokens not spent within their slot lapse (counted, never used:
 * the budget errs on the safe side). When the window is spent, callers wait for the next slot.
 * With `shared`, address bans travel the same way: a ban this process hears of is written to
 * `egress_bans`, and each lease reads the address's ban, so another process on the address holds its
 * requests from its next lease on (at most one batch of tokens, lapsing within a slot, goes unchecked).
 */
export function createPostgresEgressBudget(db: DbOrTx, shared?: SharedBans): EgressBudget {
  const addresses = new Map<string, AddressState>();
  const stopSharing = shared?.bans.onBan((ban) => void publishBan(db, ban).catch(shared.onError));

  async function lease(exchange: ExchangeId, egress: string, ceiling: Ceiling, state: AddressState, wanted: number): Promise<number> {
    const want = Math.max(1, Math.min(MAX_BATCH, wanted));
    // Committed without waiting for the WAL flush (synchronous_commit off for this statement's transaction
    // alone): it sits right in front of an order going out, and a grant lost to a database crash only
    // under-counts a few requests of a window that ends within seconds.
    const result = await db.execute<LeaseRow>(sql`
      select l.granted_now, l.ms_left, set_config('synchronous_commit', 'off', true),
        b.since as banned_since, b.until as banned_until, b.reason as ban_reason
      from lease_egress_tokens(${exchange}, ${egress}, ${want}, ${ceiling.limit}, ${ceiling.windowMs}, ${SLOTS}) l
      left join egress_bans b on b.exchange = ${exchange} and b.egress = ${egress} and b.until > now()`);
    const row = result.rows[0]!;
    if (shared && row.banned_until !== null && row.banned_since !== null) {
      shared.bans.adopt({ exchange, egress, since: Date.parse(row.banned_since), until: Date.parse(row.banned_until), reason: row.ban_reason ?? 'banned' });
    }
    state.tokens = Number(row.granted_now);
    state.expiresAt = performance.now() + Number(row.ms_left);
    return state.tokens > 0 ? 0 : Number(row.ms_left) + 1;
  }

  function stateOf(exchange: ExchangeId, egress: string): AddressState {
    const key = `${exchange}:${egress}`;
    let state = addresses.get(key);
    if (!state) {
      state = { tokens: 0, expiresAt: 0, waiting: 0, leasing: undefined };
      addresses.set(key, state);
    }
    return state;
  }

  const held = (state: AddressState) => (performance.now() < state.expiresAt ? state.tokens : 0);

  function startLease(exchange: ExchangeId, egress: string, ceiling: Ceiling, state: AddressState, wanted: number): Promise<number> {
    state.leasing ??= lease(exchange, egress, ceiling, state, wanted).finally(() => (state.leasing = undefined));
    return state.leasing;
  }

  return {
    stop: () => stopSharing?.(),
    leaseTerms: (ceiling) => ({ limit: ceiling.limit, windowMs: ceiling.windowMs, slots: SLOTS, maxBatch: MAX_BATCH }),
    credit(exchange, egress, granted, msLeft) {
      if (granted <= 0) return;
      const state = stateOf(exchange, egress);
      const until = performance.now() + msLeft;
      const before = held(state);
      // Tokens still held from an earlier slot lapse with it: the new ones never outlive them.
      state.expiresAt = before > 0 ? Math.min(state.expiresAt, until) : until;
      state.tokens = before + granted;
    },
    prepare(exchange, egress, ceiling, count) {
      const state = stateOf(exchange, egress);
      if (state.leasing || held(state) >= count) return;
      // A failed lease is the next `take`'s to report: it leases again.
      startLease(exchange, egress, ceiling, state, count).catch(() => undefined);
    },
    async take(exchange, egress, ceiling, signal) {
      const state = stateOf(exchange, egress);
      for (;;) {
        signal?.throwIfAborted();
        if (held(state) > 0) {
          state.tokens -= 1;
          return;
        }
        state.waiting += 1;
        let waitMs: number;
        try {
          waitMs = await startLease(exchange, egress, ceiling, state, state.waiting);
        } finally {
          state.waiting -= 1;
        }
        if (waitMs > 0) await sleep(waitMs, signal);
      }
    },
  };
}
