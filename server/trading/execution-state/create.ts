import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { executionClientOrderId } from '../ids';
import { EXECUTIONS_CHANNEL } from './queue';

/** Executions the queuing transaction claims for its own process's dispatcher (the in-process hand-off). */
export interface LocalClaim {
  worker: string;
  leaseMs: number;
  /** At most this many (the dispatcher's free slots); the rest wait in the queue for any process. */
  limit: number;
}

/**
 * Transition "queued": one pending execution per customer of the Order, each with its deterministic
 * entry client order id, due at once. With `claim`, the first `claim.limit` are queued already claimed
 * by that worker (a lease, first attempt, as `claimExecutions` would leave them) and are returned for
 * it to start after the commit; when any are left unclaimed every dispatcher is woken (NOTIFY, on commit).
 */
export async function queueExecutions(tx: DbOrTx, input: { orderId: number; customerIds: number[]; deadlineMs: number; claim?: LocalClaim | undefined }): Promise<number[]> {
  if (input.customerIds.length === 0) return [];
  const ids = input.customerIds;
  const clientIds = ids.map((customerId) => executionClientOrderId(input.orderId, customerId, 'entry'));
  const claimed = Math.min(ids.length, input.claim?.limit ?? 0);
  const result = await tx.execute<{ id: number; claimed: boolean }>(sql`
    insert into executions (order_id, customer_id, client_order_id, deadline_at, claimed_by, claim_expires_at, attempts)
    select ${input.orderId}, u.customer_id, u.client_order_id, now() + make_interval(secs => ${input.deadlineMs / 1000}),
      case when u.n <= ${claimed} then ${input.claim?.worker ?? null}::text end,
      case when u.n <= ${claimed} then now() + make_interval(secs => ${(input.claim?.leaseMs ?? 0) / 1000}) end,
      case when u.n <= ${claimed} then 1 else 0 end
    from unnest(${sql.raw(`'{${ids.map(Number).join(',')}}'::int[]`)}, ${`{${clientIds.join(',')}}`}::text[]) with ordinality as u(customer_id, client_order_id, n)
    returning id, claimed_by is not null as claimed`);
  if (claimed < ids.length) await tx.execute(sql`select pg_notify(${EXECUTIONS_CHANNEL}, ${String(input.orderId)})`);
  return result.rows.filter((row) => row.claimed).map((row) => Number(row.id));
}
