import { and, eq, isNull } from 'drizzle-orm';
import type { CustomerGuards, LossGuardResume, StrategyGuardsBody } from '../../../contract/api/guards';
import type { DbOrTx } from '../../db/client';
import { customerGuards, customers, strategies } from '../../db/schema/index';
import { logStaffAction, type StaffAction } from '../../lib/staff-log';

type Guards = Record<string, number | string | null>;

/** Each guard the change sets to another value, as { from, to }. */
function changesOf<T extends Guards>(before: T, after: T): Record<string, { from: number | string | null; to: number | string | null }> {
  const changes: Record<string, { from: number | string | null; to: number | string | null }> = {};
  for (const key of Object.keys(after)) {
    if (before[key] !== after[key]) changes[key] = { from: before[key] ?? null, to: after[key] ?? null };
  }
  return changes;
}

/** The strategy's own guard settings; undefined when there is no such strategy (or it is deleted). */
export async function strategyGuardsOf(db: DbOrTx, strategyId: string): Promise<StrategyGuardsBody | undefined> {
  const [row] = await db
    .select({ maxAlertAgeS: strategies.maxAlertAgeS, maxSlippageBps: strategies.maxSlippageBps })
    .from(strategies)
    .where(and(eq(strategies.id, strategyId), isNull(strategies.deletedAt)))
    .limit(1);
  return row;
}

/**
 * In one transaction: reads the guards (undefined: no such target), writes `guards` when any value
 * differs and logs each change (before and after) in the staff log; answers what holds afterwards.
 */
async function replaceGuards<T extends Guards>(
  db: DbOrTx,
  guards: T,
  steps: { read: (tx: DbOrTx) => Promise<T | undefined>; write: (tx: DbOrTx) => Promise<void>; log: Omit<StaffAction, 'details'> },
): Promise<T | undefined> {
  return db.transaction(async (tx) => {
    const before = await steps.read(tx);
    if (!before) return undefined;
    const changes = changesOf(before, guards);
    if (Object.keys(changes).length === 0) return before;
    await steps.write(tx);
    await logStaffAction(tx, { ...steps.log, details: changes });
    return guards;
  });
}

/**
 * Sets the strategy's guards (staff log `strategy.guards`); undefined when there is no such strategy. The
 * strategies trigger tells the other processes' webhook snapshots (the route drops this one's at once), so
 * the next alert is judged by the new settings; executions read theirs when they run.
 */
export function setStrategyGuards(db: DbOrTx, strategyId: string, guards: StrategyGuardsBody, actorAccountId: number): Promise<StrategyGuardsBody | undefined> {
  return replaceGuards(db, guards, {
    read: (tx) => strategyGuardsOf(tx, strategyId),
    write: async (tx) => {
      await tx.update(strategies).set(guards).where(eq(strategies.id, strategyId));
    },
    log: { actorAccountId, action: 'strategy.guards', targetType: 'strategy', targetId: strategyId },
  });
}

/** The customer's guards (all null when none is set); undefined when there is no such customer (or it was deleted). */
export async function customerGuardsOf(db: DbOrTx, customerId: number): Promise<CustomerGuards | undefined> {
  const [row] = await db
    .select({
      live: customers.accountLive,
      maxNotionalUsdt: customerGuards.maxNotionalUsdt,
      maxLeverage: customerGuards.maxLeverage,
      maxOpenPositions: customerGuards.maxOpenPositions,
      minFreeBalanceUsdt: customerGuards.minFreeBalanceUsdt,
      dailyLossLimitUsdt: customerGuards.dailyLossLimitUsdt,
      maxDrawdownPct: customerGuards.maxDrawdownPct,
      lossGuardResume: customerGuards.lossGuardResume,
    })
    .from(customers)
    .leftJoin(customerGuards, eq(customerGuards.customerId, customers.id))
    .where(eq(customers.id, customerId))
    .limit(1);
  if (!row?.live) return undefined;
  return {
    maxNotionalUsdt: row.maxNotionalUsdt,
    maxLeverage: row.maxLeverage,
    maxOpenPositions: row.maxOpenPositions,
    minFreeBalanceUsdt: row.minFreeBalanceUsdt,
    dailyLossLimitUsdt: row.dailyLossLimitUsdt,
    maxDrawdownPct: row.maxDrawdownPct,
    lossGuardResume: (row.lossGuardResume ?? 'staff') as LossGuardResume,
  };
}

/**
 * Sets the customer's guards (the row is removed when none is left; staff log `customer.guards`);
 * undefined when there is no such customer. Each entry reads them with its context, so the next entry
 * for the customer is checked against the new values.
 */
export function setCustomerGuards(db: DbOrTx, customerId: number, guards: CustomerGuards, actorAccountId: number): Promise<CustomerGuards | undefined> {
  return replaceGuards(db, guards, {
    read: (tx) => customerGuardsOf(tx, customerId),
    write: async (tx) => {
      const { lossGuardResume, ...limits } = guards;
      if (Object.values(limits).every((value) => value === null)) {
        await tx.delete(customerGuards).where(eq(customerGuards.customerId, customerId));
        return;
      }
      // A drawdown limit set anew starts its high-water mark at the next wallet read.
      const row = { ...limits, lossGuardResume, updatedAt: new Date(), ...(limits.maxDrawdownPct === null ? { equityHighWater: null } : {}) };
      await tx.insert(customerGuards).values({ customerId, ...row }).onConflictDoUpdate({ target: customerGuards.customerId, set: row });
    },
    log: { actorAccountId, action: 'customer.guards', targetType: 'customer', targetId: customerId },
  });
}
