import { sql } from 'drizzle-orm';
import type { ExitType } from '../../../contract/enums';
import { recordExitAudit } from '../../modules/audits/record';
import type { DbOrTx } from '../../db/client';
import type { ExecutionContext } from '../context';
import type { TradingRuntime } from '../runtime';
import { isFailure } from './errors';
import { finishOrderIfDone } from './finish';
import { pnlOf, type Session } from './session';

export interface LegFill {
  kind: string;
  quantity: number;
  price: number;
}

const round8 = (value: number) => Number(value.toFixed(8));

/**
 * Looks every open leg up on the exchange and books new fills into the context (closed quantity and
 * realized PnL). Returns the fills found this time.
 */
export async function refreshLegs(session: Session, ctx: ExecutionContext): Promise<LegFill[]> {
  const fills: LegFill[] = [];
  for (const leg of ctx.legs) {
    if (leg.status !== 'open') continue;
    const order = await session.adapter.fetchOrderByClientId(session.credentials, session.symbol, leg.clientOrderId);
    if (!order) continue;
    const delta = round8(order.filledQty - leg.filledQty);
    if (delta > 0 && order.avgPrice !== undefined) {
      fills.push({ kind: leg.kind, quantity: delta, price: order.avgPrice });
      ctx.realizedPnl = round8(ctx.realizedPnl + pnlOf(session.side, ctx.entryPrice!, order.avgPrice, delta));
      ctx.closedQty = round8(ctx.closedQty + delta);
      leg.filledQty = order.filledQty;
      leg.avgPrice = order.avgPrice;
    }
    if (order.status === 'closed' || leg.filledQty >= leg.quantity) leg.status = 'filled';
    else if (order.status === 'canceled' || order.status === 'rejected') leg.status = 'canceled';
  }
  return fills;
}

/** Cancels the legs still open on the exchange (already gone is fine). */
export async function cancelOpenLegs(session: Session, ctx: ExecutionContext, kinds?: string[]): Promise<void> {
  for (const leg of ctx.legs) {
    if (leg.status !== 'open' || (kinds && !kinds.includes(leg.kind))) continue;
    try {
      await session.adapter.cancelOrder(session.credentials, session.symbol, leg.clientOrderId);
    } catch (error) {
      if (!isFailure(error, 'not_found') && !isFailure(error, 'no_position')) throw error;
    }
    leg.status = 'canceled';
  }
}

/** Writes the position's bookkeeping (legs, fills, PnL, stop) without changing its state. */
export async function saveProgress(rt: Pick<TradingRuntime, 'worker'> & { db: DbOrTx }, ctx: ExecutionContext): Promise<void> {
  await rt.db.execute(sql`
    update executions set legs = ${JSON.stringify(ctx.legs)}::jsonb, closed_qty = ${ctx.closedQty}, realized_pnl = ${ctx.realizedPnl},
      stop_loss_price = ${ctx.stopLossPrice}, stop_moved_to_entry = ${ctx.stopMovedToEntry}, last_mark_price = ${ctx.lastMarkPrice}, updated_at = now()
    where id = ${ctx.id} and claimed_by = ${rt.worker}`);
}

/** The position is flat: execution closed, trade counted for the customer, exit audited, Order settled. */
export async function finalizeClosed(rt: TradingRuntime, ctx: ExecutionContext, exit: { exitType: ExitType | null; message: string }): Promise<void> {
  const closed = await rt.db.transaction(async (tx) => {
    const updated = await tx.execute(sql`
      update executions set state = 'closed', legs = ${JSON.stringify(ctx.legs)}::jsonb, closed_qty = ${ctx.closedQty},
        realized_pnl = ${ctx.realizedPnl}, stop_moved_to_entry = ${ctx.stopMovedToEntry}, closed_at = now(),
        claimed_by = null, claim_expires_at = null, updated_at = now()
      where id = ${ctx.id} and claimed_by = ${rt.worker} and state = 'open'`);
    if ((updated.rowCount ?? 0) === 0) return false;
    await tx.execute(sql`update customers set total_transactions = total_transactions + 1 where id = ${ctx.customerId}`);
    await recordExitAudit(tx, { orderId: ctx.orderId, customerId: ctx.customerId, strategyId: ctx.strategy.id, exitType: exit.exitType, message: exit.message, isError: false });
    return true;
  });
  if (closed) await finishOrderIfDone(rt.db, ctx.orderId);
}
