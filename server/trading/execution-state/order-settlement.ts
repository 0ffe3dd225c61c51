import { sql } from 'drizzle-orm';
import { OrderStatus } from '../../../contract/enums';
import type { DbOrTx } from '../../db/client';
import { instantOf } from './writer';

/**
 * Closes the Order once none of its executions is pending or open: a win when its realized PnL is
 * positive, else a loss. Run after the execution's own change is committed; a no-op otherwise.
 * `at`: when (unset: the database's now(); see StateWriter.at).
 */
export async function finishOrderIfDone(db: DbOrTx, orderId: number, at?: Date): Promise<boolean> {
  const result = await db.execute(sql`
    update orders o
    set status = (case when x.pnl > 0 then ${OrderStatus.Win} else ${OrderStatus.Loss} end)::smallint,
        realized_pnl = x.pnl, closed_at = ${instantOf(at)}, datetime_updated = ${instantOf(at)}
    from (select coalesce(sum(realized_pnl), 0) as pnl, count(*) filter (where state in ('pending', 'open')) as live
          from executions where order_id = ${orderId}) x
    where o.id = ${orderId} and o.status = ${OrderStatus.Active} and x.live = 0`);
  return (result.rowCount ?? 0) > 0;
}
