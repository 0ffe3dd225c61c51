import { sql } from 'drizzle-orm';
import type { ExitType } from '../../../contract/enums';
import type { DbOrTx } from '../../db/client';
import { EXECUTIONS_CHANNEL } from './queue';
import { instantOf } from './writer';
import { OrderStatus } from '../../../contract/enums';

/**
 * Marks every live execution (pending entry or open position) of the given orders for closing; the
 * dispatcher closes them at market, reduce-only. An execution already asked to close keeps its first
 * request (idempotent). Returns how many were newly marked. `at`: see StateWriter.at.
 */
export async function requestClose(tx: DbOrTx, where: { orderId: number } | { strategyId: string }, exitType: ExitType | null, at?: Date): Promise<number> {
  const instant = instantOf(at);
  const scope = 'orderId' in where ? sql`e.order_id = ${where.orderId}` : sql`o.strategy_id = ${where.strategyId} and o.status = ${OrderStatus.Active}`;
  const result = await tx.execute(sql`
    update executions x set close_requested_at = ${instant}, exit_type = ${exitType}, next_attempt_at = ${instant}, updated_at = ${instant}
    from executions e join orders o on o.id = e.order_id
    where x.id = e.id and ${scope} and e.state in ('pending', 'open') and e.close_requested_at is null`);
  const count = result.rowCount ?? 0;
  if (count > 0) await tx.execute(sql`select pg_notify(${EXECUTIONS_CHANNEL}, 'close')`);
  return count;
}
