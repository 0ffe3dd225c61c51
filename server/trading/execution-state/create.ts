import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { executionClientOrderId } from '../ids';
import { EXECUTIONS_CHANNEL } from './queue';
import { instantOf } from './writer';

/**
 * Transition "queued": one pending execution per customer of the Order, each with its deterministic
 * entry client order id, due at once; wakes every dispatcher (NOTIFY, delivered on commit). `at`: see
 * StateWriter.at.
 */
export async function queueExecutions(tx: DbOrTx, input: { orderId: number; customerIds: number[]; deadlineMs: number; at?: Date | undefined }): Promise<void> {
  if (input.customerIds.length === 0) return;
  const ids = input.customerIds;
  const instant = instantOf(input.at);
  const clientIds = ids.map((customerId) => executionClientOrderId(input.orderId, customerId, 'entry'));
  await tx.execute(sql`
    insert into executions (order_id, customer_id, client_order_id, deadline_at, next_attempt_at, created_at, updated_at)
    select ${input.orderId}, u.customer_id, u.client_order_id, ${instant} + make_interval(secs => ${input.deadlineMs / 1000}), ${instant}, ${instant}, ${instant}
    from unnest(${sql.raw(`'{${ids.map(Number).join(',')}}'::int[]`)}, ${`{${clientIds.join(',')}}`}::text[]) as u(customer_id, client_order_id)`);
  await tx.execute(sql`select pg_notify(${EXECUTIONS_CHANNEL}, ${String(input.orderId)})`);
}
