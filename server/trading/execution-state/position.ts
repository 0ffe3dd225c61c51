import { sql } from 'drizzle-orm';
import type { ExitType, OrderEntryType } from '../../../contract/enums';
import type { Db, DbOrTx } from '../../db/client';
import { recordEntryAudit, recordExitAudit } from '../../lib/audits';
import type { ExecutionContext } from '../context';
import type { ExecutionLeg } from '../legs';
import { finishOrderIfDone } from './order-settlement';
import { instantOf, type StateWriter } from './writer';

/** One exit audit row; `isError` rows also notify staff (the red dot). */
export type ExitAudit = { exitType: ExitType | null; message: string; isError?: boolean };

/** Transition "protected": the TP legs, stop loss and trailing stop are on the exchange. */
export async function markProtected(w: StateWriter, ctx: ExecutionContext, protection: { legs: ExecutionLeg[]; stopLossPrice: number }): Promise<void> {
  await w.db.execute(sql`
    update executions set legs = ${JSON.stringify(protection.legs)}::jsonb, stop_loss_price = ${protection.stopLossPrice}, protected_at = ${instantOf(w.at)}, updated_at = ${instantOf(w.at)}
    where id = ${ctx.id} and claimed_by = ${w.worker}`);
  ctx.legs = protection.legs;
  ctx.stopLossPrice = protection.stopLossPrice;
  ctx.protectedAt = w.at ?? new Date();
}

/**
 * Transitions "leg filled", "stop moved" and "legs resized": writes the position's bookkeeping (legs,
 * fills, PnL, stop, last mark price) as the context holds it, without changing its state.
 */
export async function saveProgress(w: StateWriter, ctx: ExecutionContext): Promise<void> {
  await w.db.execute(sql`
    update executions set legs = ${JSON.stringify(ctx.legs)}::jsonb, closed_qty = ${ctx.closedQty}, realized_pnl = ${ctx.realizedPnl},
      stop_loss_price = ${ctx.stopLossPrice}, stop_moved_to_entry = ${ctx.stopMovedToEntry}, last_mark_price = ${ctx.lastMarkPrice}, updated_at = ${instantOf(w.at)}
    where id = ${ctx.id} and claimed_by = ${w.worker}`);
}

/** Transition "leg filled" with its exit audits, in one transaction so a later failure cannot audit a fill twice. */
export async function markLegsFilled(w: StateWriter & { db: Db }, ctx: ExecutionContext, audits: ExitAudit[]): Promise<void> {
  await w.db.transaction(async (tx) => {
    await saveProgress({ db: tx, worker: w.worker, at: w.at }, ctx);
    for (const audit of audits) {
      await recordExitAudit(tx, { orderId: ctx.orderId, customerId: ctx.customerId, strategyId: ctx.strategy.id, exitType: audit.exitType, message: audit.message, isError: audit.isError ?? false, at: w.at });
    }
  });
}

/** Transition "closed": the position is flat; trade counted for the customer, exit audited, Order settled. */
export async function markClosed(w: StateWriter & { db: Db }, ctx: ExecutionContext, exit: ExitAudit): Promise<void> {
  const closed = await w.db.transaction(async (tx) => {
    const updated = await tx.execute(sql`
      update executions set state = 'closed', legs = ${JSON.stringify(ctx.legs)}::jsonb, closed_qty = ${ctx.closedQty},
        realized_pnl = ${ctx.realizedPnl}, stop_moved_to_entry = ${ctx.stopMovedToEntry}, closed_at = ${instantOf(w.at)},
        claimed_by = null, claim_expires_at = null, updated_at = ${instantOf(w.at)}
      where id = ${ctx.id} and claimed_by = ${w.worker} and state = 'open'`);
    if ((updated.rowCount ?? 0) === 0) return false;
    await tx.execute(sql`update customers set total_transactions = total_transactions + 1 where id = ${ctx.customerId}`);
    await recordExitAudit(tx, { orderId: ctx.orderId, customerId: ctx.customerId, strategyId: ctx.strategy.id, exitType: exit.exitType, message: exit.message, isError: false, at: w.at });
    return true;
  });
  if (closed) await finishOrderIfDone(w.db, ctx.orderId, w.at);
}

/**
 * Transition "protection to review": other executions of a position are due for their sync at once
 * (one has just joined it, or still holds a stop covering all of it), so each brings its own
 * protection in step: a whole-position stop replaced by one of its own size, stale legs cancelled.
 */
export async function requestProtectionReview(db: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`update executions set next_attempt_at = now(), updated_at = now() where id in ${ids} and state = 'open' and claimed_by is null`);
}

/** Transition "protection given up": the position stays open, staff are told (entry audit), the sync takes over. */
export async function markProtectionAbandoned(w: StateWriter & { db: Db }, ctx: ExecutionContext, reason: string, syncAfterMs: number): Promise<void> {
  await w.db.transaction(async (tx) => {
    await tx.execute(sql`
      update executions set protected_at = now(), last_error = ${reason}, claimed_by = null, claim_expires_at = null,
        next_attempt_at = now() + make_interval(secs => ${syncAfterMs / 1000}), updated_at = now()
      where id = ${ctx.id} and claimed_by = ${w.worker}`);
    await recordEntryAudit(tx, {
      orderId: ctx.orderId,
      customerId: ctx.customerId,
      strategyId: ctx.strategy.id,
      entryType: ctx.entryType as OrderEntryType,
      message: `The position is open but its take profit / stop loss could not be placed: ${reason}`,
    });
  });
}

/** Transition "close given up": the close request is dropped (the position stays open and synced), staff are told. */
export async function markCloseAbandoned(w: StateWriter & { db: Db }, ctx: ExecutionContext, reason: string, syncAfterMs: number): Promise<void> {
  await w.db.transaction(async (tx) => {
    await tx.execute(sql`
      update executions set close_requested_at = null, last_error = ${reason}, claimed_by = null, claim_expires_at = null,
        next_attempt_at = ${instantOf(w.at)} + make_interval(secs => ${syncAfterMs / 1000}), updated_at = ${instantOf(w.at)}
      where id = ${ctx.id} and claimed_by = ${w.worker}`);
    await recordExitAudit(tx, {
      orderId: ctx.orderId,
      customerId: ctx.customerId,
      strategyId: ctx.strategy.id,
      exitType: (ctx.exitType as ExitType | null) ?? null,
      message: `The position could not be closed: ${reason}`,
      isError: true,
      at: w.at,
    });
  });
}
