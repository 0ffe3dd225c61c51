import { and, eq, isNull } from 'drizzle-orm';
import type { StrategyGuardsBody } from '../../../contract/api/guards';
import type { DbOrTx } from '../../db/client';
import { strategies } from '../../db/schema/index';
import { logStaffAction } from '../../lib/staff-log';

/** The strategy's own guard settings; undefined when there is no such strategy (or it is deleted). */
export async function strategyGuardsOf(db: DbOrTx, strategyId: string): Promise<StrategyGuardsBody | undefined> {
  const [row] = await db
    .select({ maxAlertAgeS: strategies.maxAlertAgeS, maxSlippageBps: strategies.maxSlippageBps })
    .from(strategies)
    .where(and(eq(strategies.id, strategyId), isNull(strategies.deletedAt)))
    .limit(1);
  return row;
}

/** Each guard the change sets to another value, as { from, to }. */
function changesOf(before: StrategyGuardsBody, after: StrategyGuardsBody): Record<string, { from: number | null; to: number | null }> {
  const changes: Record<string, { from: number | null; to: number | null }> = {};
  for (const key of Object.keys(after) as Array<keyof StrategyGuardsBody>) {
    if (before[key] !== after[key]) changes[key] = { from: before[key], to: after[key] };
  }
  return changes;
}

/**
 * Sets the strategy's guards and writes the staff log (each changed value before and after) in the same
 * transaction; undefined when there is no such strategy. The strategies trigger tells every process's
 * webhook snapshot, so the next alert is judged by the new settings; executions read theirs when they run.
 */
export async function setStrategyGuards(db: DbOrTx, strategyId: string, guards: StrategyGuardsBody, actorAccountId: number): Promise<StrategyGuardsBody | undefined> {
  return db.transaction(async (tx) => {
    const before = await strategyGuardsOf(tx, strategyId);
    if (!before) return undefined;
    const changes = changesOf(before, guards);
    if (Object.keys(changes).length === 0) return before;
    await tx.update(strategies).set(guards).where(eq(strategies.id, strategyId));
    await logStaffAction(tx, { actorAccountId, action: 'strategy.guards', targetType: 'strategy', targetId: strategyId, details: changes });
    return guards;
  });
}
