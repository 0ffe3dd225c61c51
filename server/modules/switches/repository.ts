import { and, eq, isNull } from 'drizzle-orm';
import type { PauseState } from '../../../contract/api/switches';
import type { DbOrTx } from '../../db/client';
import { customers, strategies, tradingPauses } from '../../db/schema/index';
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

export async function pauseStateOf(db: DbOrTx, target: PauseTarget): Promise<PauseState> {
  const [row] = await db.select({ pausedAt: tradingPauses.pausedAt }).from(tradingPauses).where(rowOf(target)).limit(1);
  return { paused: row !== undefined, pausedAt: row ? row.pausedAt.toISOString() : null };
}

export async function strategyExists(db: DbOrTx, strategyId: string): Promise<boolean> {
  const [row] = await db.select({ id: strategies.id }).from(strategies).where(and(eq(strategies.id, strategyId), isNull(strategies.deletedAt))).limit(1);
  return row !== undefined;
}

export async function customerExists(db: DbOrTx, customerId: number): Promise<boolean> {
  const [row] = await db.select({ id: customers.id }).from(customers).where(and(eq(customers.id, customerId), eq(customers.accountLive, true))).limit(1);
  return row !== undefined;
}

/**
 * Pauses or resumes one switch and writes the staff log in the same transaction; setting the state
 * it already has changes nothing (a pause keeps its first time) and logs nothing.
 */
export async function setPause(db: DbOrTx, target: PauseTarget, paused: boolean, actorAccountId: number, at: Date): Promise<PauseState> {
  return db.transaction(async (tx) => {
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
    return pauseStateOf(tx, target);
  });
}
