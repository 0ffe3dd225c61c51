import { sql } from 'drizzle-orm';
import type { ExitType } from '../../../contract/enums';
import type { DbOrTx } from '../../db/client';
import { EXECUTIONS_CHANNEL } from './queue';
import { instantOf } from './writer';
import { OrderStatus } from '../../../contract/enums';

/** Whose live executions a close is for: one order, a strategy's active orders, one customer, or all. */
export type CloseScope = { orderId: number } | { strategyId: string } | { customerId: number } | { everything: true };

function scopeCondition(where: CloseScope) {
  if ('orderId' in where) return sql`e.order_id = ${where.orderId}`;
  if ('strategyId' in where) return sql`o.strategy_id = ${where.strategyId} and o.status = ${OrderStatus.Active}`;
  if ('customerId' in where) return sql`e.customer_id = ${where.customerId}`;
  return sql`true`;
}

/**
 * Marks every live execution (pending entry or open position) of the scope for closing; the
 * dispatcher closes them at market, reduce-only. An execution already asked to close keeps its first
 * request (idempotent). Returns how many were newly marked. `at`: see StateWriter.at; `closeAllId`: the
 * close-all these belong to (close_all_runs), if any.
 */
export async function requestClose(tx: DbOrTx, where: CloseScope, exitType: ExitType | null, options: { at?: Date; closeAllId?: number } = {}): Promise<number> {
  const instant = instantOf(options.at);
  const result = await tx.execute(sql`
    update executions x set close_requested_at = ${instant}, exit_type = ${exitType}, next_attempt_at = ${instant}, updated_at = ${instant},
      close_all_id = ${options.closeAllId ?? null}
    from executions e join orders o on o.id = e.order_id
    where x.id = e.id and ${scopeCondition(where)} and e.state in ('pending', 'open') and e.close_requested_at is null`);
  const count = result.rowCount ?? 0;
  if (count > 0) await tx.execute(sql`select pg_notify(${EXECUTIONS_CHANNEL}, 'close')`);
  return count;
}
