import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { customers } from '../../db/schema/index';
import { readEarningsSettings } from '../earnings/settings';

/**
 * Fixes the profit share of a customer who has none (self-registered) to the current default, so
 * the percentage agreed at approval does not move when the default changes later.
 */
export async function fixProfitShareAtApproval(db: DbOrTx, accountId: number): Promise<void> {
  const { defaultProfitSharePct } = await readEarningsSettings(db);
  await db
    .update(customers)
    .set({ profitSharePct: String(defaultProfitSharePct) })
    .where(and(eq(customers.accountId, accountId), isNull(customers.profitSharePct)));
}
