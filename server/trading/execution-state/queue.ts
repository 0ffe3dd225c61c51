import { sql } from 'drizzle-orm';
import type { ExchangeId } from '../exchanges/types';
import { laneFilter } from '../lanes';
import type { DbOrTx } from '../../db/client';
import { ACCOUNT_SLICES } from '../accounts/leases';

/** NOTIFY channel that wakes every dispatcher when executions are queued or a close is requested. */
export const EXECUTIONS_CHANNEL = 'executions_ready';

export type JobKind = 'work' | 'sync';

/**
 * Work: an entry to place, protection (TP/SL/trailing) to put on an open position, or a requested close.
 * Sync: an open, protected position due for a check against the exchange.
 */
const workFilter = sql`(e.state = 'pending' or (e.state = 'open' and (e.protected_at is null or e.close_requested_at is not null)))`;
const syncFilter = sql`(e.state = 'open' and e.protected_at is not null and e.close_requested_at is null)`;

/** How many to claim: at most this many in all, or per dispatcher lane (exchange). */
export type ClaimLimit = number | Partial<Record<ExchangeId, number>>;

/**
 * Claims due executions for `worker`, up to `limit` (in all, or per lane), in one statement
 * (FOR UPDATE SKIP LOCKED: two processes never claim the same row). A claim is a lease: it expires
 * unless renewed, so a dead process leaves nothing stuck. Executions of accounts whose slice another
 * live worker leases are left to that worker (it holds them warm).
 */
export async function claimExecutions(db: DbOrTx, input: { worker: string; limit: ClaimLimit; leaseMs: number; kind: JobKind }): Promise<number[]> {
  const filter = input.kind === 'work' ? workFilter : syncFilter;
  const due = (lane: ExchangeId | undefined, limit: number) => sql`
      select e.id from executions e
      where e.state in ('pending', 'open') and ${filter} and ${lane ? laneFilter(lane) : sql`true`}
        and e.next_attempt_at <= now()
        and (e.claim_expires_at is null or e.claim_expires_at < now())
        and not exists (select 1 from account_slices s
                        where s.slice = e.customer_id % ${ACCOUNT_SLICES} and s.owner <> ${input.worker} and s.lease_until > now())
      order by e.next_attempt_at, e.id
      limit ${limit}
      for update skip locked`;
  const parts: Array<[ExchangeId | undefined, number]> = typeof input.limit === 'number' ? [[undefined, input.limit]] : Object.entries(input.limit).map(([lane, limit]) => [lane as ExchangeId, limit ?? 0]);
  const wanted = parts.filter(([, limit]) => limit > 0);
  if (wanted.length === 0) return [];
  const ctes = sql.join(
    wanted.map(([lane, limit], i) => sql`${sql.raw(`due_${i}`)} as (${due(lane, limit)})`),
    sql`, `,
  );
  const union = sql.raw(wanted.map((_, i) => `select id from due_${i}`).join(' union all '));
  const result = await db.execute<{ id: number }>(sql`
    with ${ctes}
    update executions x
    set claimed_by = ${input.worker},
        claim_expires_at = now() + make_interval(secs => ${input.leaseMs / 1000}),
        attempts = x.attempts + ${input.kind === 'work' ? 1 : 0},
        updated_at = now()
    from (${union}) due where x.id = due.id
    returning x.id`);
  return result.rows.map((row) => Number(row.id));
}

/** Extends the leases of the executions this worker still has in flight. */
export async function renewClaims(db: DbOrTx, worker: string, ids: number[], leaseMs: number): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    update executions set claim_expires_at = now() + make_interval(secs => ${leaseMs / 1000})
    where claimed_by = ${worker} and id in ${ids}`);
}

/**
 * Gives the execution back to the queue, due again after `delayMs`. Only the claim holder may. A close
 * requested while the execution was claimed stays due at once (unless this is a retry of that close).
 */
export async function releaseClaim(db: DbOrTx, worker: string, id: number, delayMs: number, lastError?: string): Promise<void> {
  await db.execute(sql`
    update executions
    set claimed_by = null, claim_expires_at = null, updated_at = now(),
        next_attempt_at = case when close_requested_at is not null and ${lastError ?? null}::text is null then now()
                               else now() + make_interval(secs => ${delayMs / 1000}) end,
        last_error = coalesce(${lastError ?? null}, last_error)
    where id = ${id} and claimed_by = ${worker}`);
}

/** Releases claims of a worker it will not run after all (due at once), so any process takes them. */
export async function releaseClaims(db: DbOrTx, worker: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    update executions set claimed_by = null, claim_expires_at = null, next_attempt_at = now(), updated_at = now()
    where claimed_by = ${worker} and id in ${ids}`);
  await db.execute(sql`select pg_notify(${EXECUTIONS_CHANNEL}, 'released')`);
}

/** Releases every claim of a worker that is shutting down, so others can resume at once. */
export async function releaseAllClaims(db: DbOrTx, worker: string): Promise<void> {
  await db.execute(sql`update executions set claimed_by = null, claim_expires_at = null where claimed_by = ${worker}`);
}

/** Retry delay: 200 ms doubling up to 2 s, with up to 20% jitter (many tries fit in the entry deadline). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(2_000, 200 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (1 + 0.2 * random()));
}

/** Milliseconds until the next work item falls due (a retry, or a claim that expires); null when none. */
export async function nextWorkDueInMs(db: DbOrTx): Promise<number | null> {
  const result = await db.execute<{ ms: number | null }>(sql`
    select extract(epoch from (min(greatest(e.next_attempt_at, coalesce(e.claim_expires_at, e.next_attempt_at))) - now())) * 1000 as ms
    from executions e where e.state in ('pending', 'open') and ${workFilter}`);
  const ms = result.rows[0]?.ms;
  return ms === null || ms === undefined ? null : Math.max(0, Number(ms));
}

/** The claim of a rate-limited try does not count as an attempt (protection and closes give up after a number of them). */
export async function forgiveAttempt(db: DbOrTx, worker: string, id: number): Promise<void> {
  await db.execute(sql`update executions set attempts = greatest(attempts - 1, 0) where id = ${id} and claimed_by = ${worker}`);
}

/** Entries not yet placed (pending), per exchange platform, with their earliest deadline: what the pacer must leave room for. */
export async function pendingEntries(db: DbOrTx): Promise<Array<{ platformType: number; pending: number; earliestDeadline: Date }>> {
  const result = await db.execute<{ platform_type: number; pending: number; earliest: string }>(sql`
    select c.platform_type, count(*)::int as pending, min(e.deadline_at) as earliest
    from executions e join customers c on c.id = e.customer_id
    where e.state = 'pending' and e.close_requested_at is null
    group by c.platform_type`);
  return result.rows.map((row) => ({ platformType: Number(row.platform_type), pending: Number(row.pending), earliestDeadline: new Date(row.earliest) }));
}

/** What private streams reported, gathered for one statement. */
export interface DueNews {
  /** Customers whose every open execution is due (their stream caught up after a drop). */
  resynced: Set<number>;
  /** customer id, symbol: the executions of a position that shrank. */
  positions: Array<[number, string]>;
  /** order id, customer id: the execution of a leg that ended. */
  legs: Array<[number, number]>;
}

/**
 * Transition "due now": the open executions the news concerns are due at once. Answers how many were
 * made due, and those `worker` is running (they are looked at again when their run ends).
 */
export async function wakeExecutions(db: DbOrTx, worker: string, news: DueNews): Promise<{ woken: number; running: number[] }> {
  const positions = JSON.stringify(news.positions.map(([customer, symbol]) => ({ customer, symbol })));
  const legs = JSON.stringify(news.legs.map(([orderId, customer]) => ({ order_id: orderId, customer })));
  const result = await db.execute<{ id: number; woken: boolean }>(sql`
    with hit as (
      select e.id, e.claimed_by from executions e
      join orders o on o.id = e.order_id
      join strategies s on s.id = o.strategy_id
      where e.state = 'open' and (
        e.customer_id in (select value::int from jsonb_array_elements_text(${JSON.stringify([...news.resynced])}::jsonb))
        or (e.customer_id, s.symbol) in (select p.customer, p.symbol from jsonb_to_recordset(${positions}::jsonb) as p(customer int, symbol text))
        or (e.order_id, e.customer_id) in (select l.order_id, l.customer from jsonb_to_recordset(${legs}::jsonb) as l(order_id int, customer int)))
    ), woken as (
      update executions x set next_attempt_at = now(), updated_at = now()
      from hit where x.id = hit.id and hit.claimed_by is null and x.claimed_by is null
      returning x.id
    )
    select id, true as woken from woken
    union all
    select id, false as woken from hit where claimed_by = ${worker}`);
  const rows = result.rows;
  return { woken: rows.filter((row) => row.woken).length, running: rows.filter((row) => !row.woken).map((row) => Number(row.id)) };
}
