import { and, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { PauseState } from '../../../contract/api/switches';
import type { DbOrTx } from '../../db/client';
import { customerGuards, customers, strategies, tradingPauses } from '../../db/schema/index';
import { logStaffAction, type StaffAction } from '../../lib/staff-log';

/** One kill switch: the platform, a strategy or a customer (table trading_pauses, one row while paused). */
export type PauseTarget = { scope: 'platform' } | { scope: 'strategy'; strategyId: string } | { scope: 'customer'; customerId: number };

/** The columns naming the target in a row per scope (trading_pauses, close_all_runs). */
export function targetColumns(target: PauseTarget) {
  return {
    scope: target.scope,
    strategyId: target.scope === 'strategy' ? target.strategyId : null,
    customerId: target.scope === 'customer' ? target.customerId : null,
  };
}

/** The target as the staff log names it. */
export function staffLogTarget(target: PauseTarget): Pick<StaffAction, 'targetType' | 'targetId'> {
  if (target.scope === 'strategy') return { targetType: 'strategy', targetId: target.strategyId };
  if (target.scope === 'customer') return { targetType: 'customer', targetId: target.customerId };
  return { targetType: 'settings', targetId: 'platform' };
}

function rowOf(target: PauseTarget) {
  if (target.scope === 'strategy') return eq(tradingPauses.strategyId, target.strategyId);
  if (target.scope === 'customer') return eq(tradingPauses.customerId, target.customerId);
  return eq(tradingPauses.scope, 'platform');
}

/** A guard's pause whose time is up no longer counts (and is cleared at the next change). */
const inForce = (at: Date) => or(isNull(tradingPauses.resumeAt), gt(tradingPauses.resumeAt, at));

export async function pauseStateOf(db: DbOrTx, target: PauseTarget, at: Date): Promise<PauseState> {
  const [row] = await db
    .select({ pausedAt: tradingPauses.pausedAt, reason: tradingPauses.reason, resumeAt: tradingPauses.resumeAt })
    .from(tradingPauses)
    .where(and(rowOf(target), inForce(at)))
    .limit(1);
  if (!row) return { paused: false, pausedAt: null, reason: null, resumeAt: null };
  return { paused: true, pausedAt: row.pausedAt.toISOString(), reason: row.reason, resumeAt: row.resumeAt?.toISOString() ?? null };
}

export async function strategyExists(db: DbOrTx, strategyId: string): Promise<boolean> {
  const [row] = await db.select({ id: strategies.id }).from(strategies).where(and(eq(strategies.id, strategyId), isNull(strategies.deletedAt))).limit(1);
  return row !== undefined;
}

/** Whether the customer exists (and, with `accountId`, is that account's own). */
export async function customerExists(db: DbOrTx, customerId: number, accountId?: number): Promise<boolean> {
  const own = accountId === undefined ? undefined : eq(customers.accountId, accountId);
  const [row] = await db.select({ id: customers.id }).from(customers).where(and(eq(customers.id, customerId), eq(customers.accountLive, true), own)).limit(1);
  return row !== undefined;
}

/**
 * Pauses or resumes one switch and writes the staff log in the same transaction; setting the state
 * it already has changes nothing (a pause keeps its first time) and logs nothing.
 */
export async function setPause(db: DbOrTx, target: PauseTarget, paused: boolean, actorAccountId: number, at: Date): Promise<PauseState> {
  return db.transaction(async (tx) => {
    await tx.delete(tradingPauses).where(and(rowOf(target), lte(tradingPauses.resumeAt, at)));
    // Resumed by staff, a drawdown guard measures again from the equity read next.
    if (!paused && target.scope === 'customer') await tx.update(customerGuards).set({ equityHighWater: null }).where(eq(customerGuards.customerId, target.customerId));
    const changed = paused
      ? await tx
          .insert(tradingPauses)
          .values({ ...targetColumns(target), pausedAt: at, pausedBy: actorAccountId })
          .onConflictDoNothing()
          .returning({ id: tradingPauses.id })
      : await tx.delete(tradingPauses).where(rowOf(target)).returning({ id: tradingPauses.id });
    if (changed.length > 0) {
      await logStaffAction(tx, { actorAccountId, action: paused ? `${target.scope}.pause` : `${target.scope}.resume`, ...staffLogTarget(target) });
    }
    return pauseStateOf(tx, target, at);
  });
}
