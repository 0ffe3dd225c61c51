import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { preparedSql } from '../../db/prepared';
import { executionClientOrderId } from '../ids';
import { EXECUTIONS_CHANNEL } from './queue';
import type { ExchangeId } from '../exchanges/types';
import { laneOf } from '../lanes';
import { contextsOf, contextsOver, type ExecutionContext, type Row } from '../context';

/** Executions the queuing transaction claims for its own process's dispatcher (the in-process hand-off). */
export interface LocalClaim {
  worker: string;
  leaseMs: number;
  /** At most this many per exchange (the dispatcher's free slots of that lane); the rest wait in the queue for any process. */
  room(lane: ExchangeId): number;
  /** Only accounts of the slices this worker leases (it holds them warm); the others' owners claim theirs. */
  owns(customerId: number): boolean;
  /** The entries it is about to start (those claimed), told before the insert commits: see LocalRunner.expect. */
  expect(entries: ReadonlyArray<{ platformType: number }>): void;
}

/** The customers the local claim takes: those it owns, up to its room in each exchange's lane. */
function claimedCustomers<C extends { id: number; platformType: number }>(customers: C[], claim: LocalClaim): C[] {
  const taken = new Map<ExchangeId, number>();
  return customers.filter((customer) => {
    const lane = laneOf(customer.platformType);
    const count = taken.get(lane) ?? 0;
    if (!claim.owns(customer.id) || count >= claim.room(lane)) return false;
    taken.set(lane, count + 1);
    return true;
  });
}

/** One execution per (customer, client id) given, pending and due at `at`; those in `claimed` already claimed by `worker`. */
const queuedRows = sql`
  insert into executions (order_id, customer_id, client_order_id, deadline_at, next_attempt_at, created_at, updated_at, claimed_by, claim_expires_at, attempts)
  select ${sql.placeholder('orderId')}::int, u.customer_id, u.client_order_id, u.at + make_interval(secs => ${sql.placeholder('deadlineS')}::float8), u.at, u.at, u.at,
    case when u.claimed then ${sql.placeholder('worker')}::text end,
    case when u.claimed then now() + make_interval(secs => ${sql.placeholder('leaseS')}::float8) end,
    case when u.claimed then 1 else 0 end
  from (select c.customer_id, c.client_order_id, c.claimed, coalesce(${sql.placeholder('at')}::timestamptz, now()) as at
        from unnest(${sql.placeholder('customers')}::int[], ${sql.placeholder('clientIds')}::text[], ${sql.placeholder('claimed')}::boolean[]) as c(customer_id, client_order_id, claimed)) u`;

/** Nothing handed to this process: the bare insert (no contexts query) and the dispatchers woken. */
const queueForAnyWorker = preparedSql(
  'trading_queue_executions',
  sql`with queued as (${queuedRows} returning 1)
    select pg_notify(${EXECUTIONS_CHANNEL}, ${sql.placeholder('orderId')}::text) from (select 1 from queued limit 1) any_row`,
);

/** Some claimed for this process: their contexts answered by the same statement, the dispatchers woken when any are left. */
const queueAndClaim = preparedSql<Row>(
  'trading_queue_and_claim_executions',
  sql`
    with queued as (
      ${queuedRows}
      -- RETURNING is computed for every row inserted, read or not: its uncorrelated subquery (the NOTIFY) runs once.
      returning *, (select count(*) from (select pg_notify(${EXECUTIONS_CHANNEL}, ${sql.placeholder('orderId')}::text) where ${sql.placeholder('unclaimed')}::boolean) notified) as woken),
    claimed as (select * from queued where claimed_by is not null)
    ${contextsOver(sql`claimed`)}
    order by e.id`,
);

/**
 * Transition "queued": one pending execution per customer of the Order, each with its deterministic
 * entry client order id, due at once. With `claim`, the first `claim.room(lane)` of each exchange's
 * accounts the claiming worker owns are queued already claimed by that worker (a lease, first attempt,
 * as `claimExecutions` would leave them) and their contexts are returned, read by the same statement,
 * for it to start after the commit; when any are left unclaimed every dispatcher is woken (NOTIFY, on
 * commit, sent by the same statement). `at`: see StateWriter.at.
 */
export async function queueExecutions(
  tx: DbOrTx,
  input: { orderId: number; customers: Array<{ id: number; platformType: number }>; deadlineMs: number; claim?: LocalClaim | undefined; at?: Date | undefined },
): Promise<ExecutionContext[]> {
  if (input.customers.length === 0) return [];
  const ids = input.customers.map((customer) => customer.id);
  const claim = input.claim;
  const claimed = claim ? claimedCustomers(input.customers, claim) : [];
  if (claim && claimed.length > 0) claim.expect(claimed);
  const claimedIds = new Set(claimed.map((customer) => customer.id));
  const values = {
    orderId: input.orderId,
    deadlineS: input.deadlineMs / 1000,
    worker: claim?.worker ?? null,
    leaseS: (claim?.leaseMs ?? 0) / 1000,
    // One flag per customer, in the same order (a membership test against the claimed ids was quadratic: 0.5 s for 5,000).
    claimed: `{${ids.map((customerId) => (claimedIds.has(customerId) ? 't' : 'f')).join(',')}}`,
    at: input.at?.toISOString() ?? null,
    customers: pgIntArray(ids),
    clientIds: `{${ids.map((customerId) => executionClientOrderId(input.orderId, customerId, 'entry')).join(',')}}`,
    unclaimed: claimedIds.size < ids.length,
  };
  // Both prepared once per connection: the contexts query alone took ~2 ms to plan on every call.
  if (claimedIds.size === 0) {
    await queueForAnyWorker(tx, values);
    return [];
  }
  return contextsOf(await queueAndClaim(tx, values));
}

const pgIntArray = (values: number[]) => `{${values.map(Number).join(',')}}`;
