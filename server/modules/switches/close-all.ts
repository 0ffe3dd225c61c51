import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { CloseAllProgress } from '../../../contract/api/switches';
import type { DbOrTx } from '../../db/client';
import { closeAllRuns } from '../../db/schema/index';
import { logStaffAction } from '../../lib/staff-log';
import { requestCloseAll, type CloseScope } from '../../trading/intake';
import { staffLogTarget, targetColumns, type PauseTarget } from './repository';

function closeScopeOf(target: PauseTarget): CloseScope {
  if (target.scope === 'strategy') return { strategyId: target.strategyId };
  if (target.scope === 'customer') return { customerId: target.customerId };
  return { everything: true };
}

function runsOf(target: PauseTarget): SQL {
  if (target.scope === 'strategy') return eq(closeAllRuns.strategyId, target.strategyId);
  if (target.scope === 'customer') return eq(closeAllRuns.customerId, target.customerId);
  return eq(closeAllRuns.scope, 'platform');
}

/**
 * Asks the engine to close every live position of the target at market (exit type "by admin", so each
 * position's close is audited as such), records the close-all (asked `at`, the app's clock) and writes the
 * staff log, in one transaction. The closes are due at once, on the database's clock, as an order's close.
 */
export async function closeAll(db: DbOrTx, target: PauseTarget, actorAccountId: number, at: Date): Promise<CloseAllProgress> {
  return db.transaction(async (tx) => {
    const [run] = await tx
      .insert(closeAllRuns)
      .values({ ...targetColumns(target), requestedAt: at, requestedBy: actorAccountId })
      .returning({ id: closeAllRuns.id });
    const positions = await requestCloseAll(tx, closeScopeOf(target), run!.id);
    await tx.update(closeAllRuns).set({ positions }).where(eq(closeAllRuns.id, run!.id));
    await logStaffAction(tx, { actorAccountId, action: `${target.scope}.closeAll`, ...staffLogTarget(target), details: { positions } });
    return (await progressOf(tx, run!.id))!;
  });
}

/** The latest close-all of the target with its progress, or null. */
export async function lastCloseAll(db: DbOrTx, target: PauseTarget): Promise<CloseAllProgress | null> {
  const [run] = await db.select({ id: closeAllRuns.id }).from(closeAllRuns).where(runsOf(target)).orderBy(desc(closeAllRuns.id)).limit(1);
  return run ? progressOf(db, run.id) : null;
}

interface ProgressRow extends Record<string, unknown> {
  id: number;
  scope: CloseAllProgress['scope'];
  requested_at: Date | string;
  positions: number;
  closed: string;
  protected: string;
}

/** A close-all's executions by state: done (closed, failed or skipped), and, of the live ones, those holding their stop. */
async function progressOf(db: DbOrTx, runId: number): Promise<CloseAllProgress | null> {
  const result = await db.execute<ProgressRow>(sql`
    select r.id, r.scope, r.requested_at, r.positions,
      count(e.id) filter (where e.state not in ('pending', 'open')) as closed,
      count(e.id) filter (where e.state = 'open' and e.protected_at is not null) as protected
    from close_all_runs r left join executions e on e.close_all_id = r.id
    where r.id = ${runId}
    group by r.id`);
  const row = result.rows[0];
  if (!row) return null;
  return {
    id: Number(row.id),
    scope: row.scope,
    requestedAt: new Date(row.requested_at).toISOString(),
    positions: Number(row.positions),
    closed: Number(row.closed),
    protected: Number(row.protected),
  };
}
