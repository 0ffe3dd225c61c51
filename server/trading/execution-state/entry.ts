import { sql } from 'drizzle-orm';
import type { OrderEntryType } from '../../../contract/enums';
import type { Db } from '../../db/client';
import { recordEntryAudit } from '../../lib/audits';
import type { ExecutionContext } from '../context';
import type { ExecutionLeg } from '../legs';
import { finishOrderIfDone } from './order-settlement';
import { instantOf, type StateWriter } from './writer';

/** What the entry put on the exchange: its size, its id, and the protection attached to it. */
interface EntryRecord {
  quantity: number;
  exchangeOrderId: string | undefined;
  /** The TP/SL the exchange makes from the entry's attached levels. */
  legs: ExecutionLeg[];
  stopLossPrice: number | null;
}

/**
 * Transition "entry placed": the exchange acknowledged the entry but its fill is not known yet. The
 * execution is open with the quantity asked for; the fill is read before the legs are placed.
 */
export async function markEntryPlaced(w: StateWriter, ctx: ExecutionContext, placed: EntryRecord): Promise<void> {
  await w.db.execute(sql`
    update executions set state = 'open', quantity = ${placed.quantity}, entry_price = null,
      exchange_order_id = ${placed.exchangeOrderId ?? null}, legs = ${JSON.stringify(placed.legs)}::jsonb,
      stop_loss_price = ${placed.stopLossPrice}, updated_at = ${instantOf(w.at)}
    where id = ${ctx.id} and claimed_by = ${w.worker}`);
  ctx.state = 'open';
  ctx.quantity = placed.quantity;
  ctx.entryPrice = null;
}

/** Transition "filled": the entry's fill (what actually filled, at what average price) opens the position. */
export async function markEntryFilled(w: StateWriter, ctx: ExecutionContext, fill: EntryRecord & { avgPrice: number }): Promise<void> {
  await w.db.execute(sql`
    update executions set state = 'open', quantity = ${fill.quantity}, entry_price = ${fill.avgPrice},
      exchange_order_id = ${fill.exchangeOrderId ?? null}, legs = ${JSON.stringify(fill.legs)}::jsonb,
      stop_loss_price = ${fill.stopLossPrice}, updated_at = ${instantOf(w.at)}
    where id = ${ctx.id} and claimed_by = ${w.worker}`);
  ctx.state = 'open';
  ctx.quantity = fill.quantity;
  ctx.entryPrice = fill.avgPrice;
}

/**
 * Transitions "skipped" and "failed": the execution ends without a position and writes its entry
 * audit (and the staff red dot) in the same transaction; the Order settles when it was the last.
 * `from` 'open' is an entry the exchange acknowledged but did not fill.
 */
export async function markEndedWithoutPosition(
  w: StateWriter & { db: Db },
  ctx: ExecutionContext,
  state: 'skipped' | 'failed',
  message: string,
  from: 'pending' | 'open' = 'pending',
): Promise<void> {
  const ended = await w.db.transaction(async (tx) => {
    const updated = await tx.execute(sql`
      update executions set state = ${state}, last_error = ${message}, claimed_by = null, claim_expires_at = null, updated_at = ${instantOf(w.at)}
      where id = ${ctx.id} and claimed_by = ${w.worker} and state = ${from}`);
    if ((updated.rowCount ?? 0) === 0) return false;
    await recordEntryAudit(tx, { orderId: ctx.orderId, customerId: ctx.customerId, strategyId: ctx.strategy.id, entryType: ctx.entryType as OrderEntryType, message, at: w.at });
    return true;
  });
  if (ended) await finishOrderIfDone(w.db, ctx.orderId, w.at);
}
