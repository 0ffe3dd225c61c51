import type { DbOrTx } from '../../db/client';
import { preparedFunctionCall } from '../prepared-call';

/** SQL function `finish_order_if_done` (migration alert_intake_functions), shared with the alert intake's `enqueue_order`. */
const finishOrderCall = preparedFunctionCall<boolean, 'orderId' | 'at'>('trading_finish_order_if_done', 'finish_order_if_done', ['orderId', 'at']);

/**
 * Closes the Order once none of its executions is pending or open: a win when its realized PnL is
 * positive, else a loss. Run after the execution's own change is committed; a no-op otherwise.
 * `at`: when (unset: the database's now(); see StateWriter.at).
 */
export async function finishOrderIfDone(db: DbOrTx, orderId: number, at?: Date): Promise<boolean> {
  return finishOrderCall(db, { orderId, at: at ? at.toISOString() : null });
}
