import { NotificationType, type ExitType, type OrderEntryType } from '../../contract/enums';
import type { DbOrTx } from '../db/client';
import { entryAudits, exitAudits } from '../db/schema/index';
import { publishNotification } from './notify';

/** A failed or skipped entry: one row in the entry audit, and the red dot for staff. */
export async function recordEntryAudit(
  db: DbOrTx,
  row: { orderId: number | null; customerId: number | null; strategyId: string | null; entryType: OrderEntryType | null; message: string },
): Promise<void> {
  await db.insert(entryAudits).values(row);
  await publishNotification(db, { type: NotificationType.EntryFailure, message: row.message });
}

/** An exit (by admin, by customer, by TP/SL on the exchange); failures also notify staff. */
export async function recordExitAudit(
  db: DbOrTx,
  row: { orderId: number | null; customerId: number | null; strategyId: string | null; exitType: ExitType | null; message: string; isError: boolean },
): Promise<void> {
  await db.insert(exitAudits).values(row);
  if (row.isError) await publishNotification(db, { type: NotificationType.ExitFailure, message: row.message });
}
