import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { executionClientOrderId } from '../ids';
import { EXECUTIONS_CHANNEL } from './queue';
import type { ExchangeId } from '../exchanges/types';
import { laneOf } from '../lanes';
import { instantOf } from './writer';
import { contextsOf, contextsOver, type ExecutionContext, type Row } from '../context';

/** Executions the queuing transaction claims for its own process's dispatcher (the in-process hand-off). */
export interface LocalClaim {
  worker: string;
  leaseMs: number;
  /** At most this many per exchange (the dispatcher's free slots of that lane); the rest wait in the queue for any process. */
  room(lane: ExchangeId): number;
  /** Only accounts of the slices this worker leases (it holds them warm); the others' owners claim theirs. */
  owns(customerId: number): boolean;
}

/** The customers the local claim takes: those it owns, up to its room in each exchange's lane. */
function claimedCustomers(customers: Array<{ id: number; platformType: number }>, claim: LocalClaim): number[] {
  const taken = new Map<ExchangeId, number>();
  return customers
    .filter((customer) => {
      const lane = laneOf(customer.platformType);
      const count = taken.get(lane) ?? 0;
      if (!claim.owns(customer.id) || count >= claim.room(lane)) return false;
      taken.set(lane, count + 1);
      return true;
    })
    .map((customer) => customer.id);
}

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
  const instant = instantOf(input.at);
  const clientIds = ids.map((customerId) => executionClientOrderId(input.orderId, customerId, 'entry'));
  const claim = input.claim;
  const claimedIds = claim ? claimedCustomers(input.customers, claim) : [];
  const unclaimed = claimedIds.length < ids.length;
  const rows = sql`
    insert into executions (order_id, customer_id, client_order_id, deadline_at, next_attempt_at, created_at, updated_at, claimed_by, claim_expires_at, attempts)
    select ${input.orderId}, u.customer_id, u.client_order_id, ${instant} + make_interval(secs => ${input.deadlineMs / 1000}), ${instant}, ${instant}, ${instant},
      case when u.claimed then ${claim?.worker ?? null}::text end,
      case when u.claimed then now() + make_interval(secs => ${(claim?.leaseMs ?? 0) / 1000}) end,
      case when u.claimed then 1 else 0 end
    from (select c.customer_id, c.client_order_id, c.customer_id = any(${pgIntArray(claimedIds)}::int[]) as claimed
          from unnest(${pgIntArray(ids)}::int[], ${`{${clientIds.join(',')}}`}::text[]) as c(customer_id, client_order_id)) u`;
  if (claimedIds.length === 0) {
    // Nothing to hand to this process: the bare insert, without the contexts query (planned on every
    // call, ~2 ms even when it reads no row), and the dispatchers woken.
    await tx.execute(sql`with queued as (${rows} returning 1) select pg_notify(${EXECUTIONS_CHANNEL}, ${String(input.orderId)}) from (select 1 from queued limit 1) any_row`);
    return [];
  }
  const result = await tx.execute<Row>(sql`
    with queued as (
      ${rows}
      -- RETURNING is computed for every row inserted, read or not: its uncorrelated subquery (the NOTIFY) runs once.
      returning *, (select count(*) from (select pg_notify(${EXECUTIONS_CHANNEL}, ${String(input.orderId)}) where ${unclaimed}) notified) as woken),
    claimed as (select * from queued where claimed_by is not null)
    ${contextsOver(sql`claimed`)}
    order by e.id`);
  return contextsOf(result.rows);
}

const pgIntArray = (values: number[]) => `{${values.map(Number).join(',')}}`;
