import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { strategies } from '../../db/schema/index';
import { logStaffAction } from '../../lib/staff-log';

/** The strategy's own guard settings; undefined when there is no such strategy (or it is deleted). */
export async function strategyGuardsOf(db: DbOrTx, strategyId: string): Promise<{ maxAlertAgeS: number | null } | undefined> {
  const [row] = await db
    .select({ maxAlertAgeS: strategies.maxAlertAgeS })
    .from(strategies)
    .where(and(eq(strategies.id, strategyId), isNull(strategies.deletedAt)))
    .limit(1);
  return row;
}

/**
 * Sets the strategy's guards and writes the staff log (with the value before and after) in the same
 * transaction; undefined when there is no such strategy. The strategies trigger tells every process's
 * webhook snapshot, so the next alert is judged by the new setting.
 */
export async function setStrategyGuards(db: DbOrTx, strategyId: string, maxAlertAgeS: number | null, actorAccountId: number): Promise<{ maxAlertAgeS: number | null } | undefined> {
  return db.transaction(async (tx) => {
    const before = await strategyGuardsOf(tx, strategyId);
    if (!before) return undefined;
    if (before.maxAlertAgeS === maxAlertAgeS) return before;
    await tx.update(strategies).set({ maxAlertAgeS }).where(eq(strategies.id, strategyId));
    await logStaffAction(tx, { actorAccountId, action: 'strategy.guards', targetType: 'strategy', targetId: strategyId, details: { maxAlertAgeS: { from: before.maxAlertAgeS, to: maxAlertAgeS } } });
    return { maxAlertAgeS };
  });
}
