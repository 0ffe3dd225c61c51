import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { AddressBan, AddressBans } from './address-ban';
import { createWindowShares, type SharedWindow } from './egress-share';
import type { ExchangeId } from './types';

/** At most `limit` requests in any `windowMs` (an exchange's window, or our share of it). */
export interface Ceiling {
  limit: number;
  windowMs: number;
}

/**
 * What every process on one egress address (EXCHANGE_EGRESS) shares, so that together they stay under
 * the exchange's per-address ceilings, whatever their number:
 * - the request windows (`share`): each process sizes its own sliding window to its part of the ceiling
 *   (egress-share.ts), moved between processes as their demand changes, never by a round trip per request;
 * - events counted when they happen (`take`: Bybit's new trade connections, 500 per 5 minutes), as
 *   tokens leased in batches;
 * - the address's bans.
 */
export interface EgressBudget {
  /** Sizes `window` to this process's part of `ceiling` on the address, from now on. */
  share(exchange: ExchangeId, egress: string, ceiling: Ceiling, window: SharedWindow): void;
  /** `count` requests are about to leave `egress` (an alert's entries): this process's part grows now if it must. */
  expect?(exchange: ExchangeId, egress: string, count: number): void;
  /** Resolves when one more event may happen on `egress` under `ceiling` (counted when taken). */
  take(exchange: ExchangeId, egress: string, ceiling: Ceiling, signal?: AbortSignal): Promise<void>;
  /** Stops sharing: this process's parts are reported as what it still holds (counted until they lapse). */
  stop?(): Promise<void>;
}

/** Slots per window: the token budget is counted over the last SLOTS + 1 of them. */
const SLOTS = 10;
/** Most tokens leased at once. */
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
 * Tokens of events counted when they happen, leased in batches (`lease_egress_tokens`, server/db/functions/egress-budget.sql):
 * up to MAX_BATCH of the current slot in one round trip; tokens not spent within their slot lapse.
 * Right for an event that happens at once when taken (a connection opened); not for a request, which the
 * exchange counts when it arrives (see egress-share.ts).
 */
function createTokenLeases(db: DbOrTx): EgressBudget['take'] {
  const addresses = new Map<string, AddressState>();

  async function lease(exchange: ExchangeId, egress: string, ceiling: Ceiling, state: AddressState, wanted: number): Promise<number> {
    const sentAt = performance.now();
    const want = Math.max(1, Math.min(MAX_BATCH, wanted));
    const result = await db.execute<LeaseRow>(sql`
      select l.granted_now, l.ms_left from lease_egress_tokens(${exchange}, ${egress}, ${want}, ${ceiling.limit}, ${ceiling.windowMs}, ${SLOTS}) l`);
    const row = result.rows[0]!;
    state.tokens = Number(row.granted_now);
    // Counted from when the lease was asked for: the slot cannot have ended later than that.
    state.expiresAt = sentAt + Number(row.ms_left);
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

  return async (exchange, egress, ceiling, signal) => {
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
        state.leasing ??= lease(exchange, egress, ceiling, state, state.waiting).finally(() => (state.leasing = undefined));
        waitMs = await state.leasing;
      } finally {
        state.waiting -= 1;
      }
      if (waitMs > 0) await sleep(waitMs, signal);
    }
  };
}

/**
 * The PostgreSQL budget of every process on an address. With `shared`, address bans travel too: a ban
 * this process hears of is written to `egress_bans`, and each round of its window parts reads the
 * address's ban, so the others hold their requests from their next round on.
 */
export function createPostgresEgressBudget(db: DbOrTx, shared?: SharedBans): EgressBudget {
  const stopPublishing = shared?.bans.onBan((ban) => void publishBan(db, ban).catch(shared.onError));
  const windows = createWindowShares(db, { bans: shared?.bans, onError: shared?.onError });
  return {
    share: (exchange, egress, ceiling, window) => windows.share(exchange, egress, ceiling, window),
    expect: (exchange, egress, count) => windows.expect(exchange, egress, count),
    take: createTokenLeases(db),
    async stop() {
      stopPublishing?.();
      await windows.stop();
    },
  };
}
