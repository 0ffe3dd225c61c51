import { NotificationType, type ExitType, type OrderEntryType } from '../../contract/enums';
import type { DbOrTx } from '../db/client';
import { entryAudits, exitAudits } from '../db/schema/index';
import { publishNotification } from './notify';

/** `at`: when it happened; unset, the database's now() (only the demo seeding backdates). */
interface AuditInstant {
  at?: Date | undefined;
}

/** A failed or skipped entry: one row in the entry audit, and the red dot for staff. */
export async function recordEntryAudit(
  db: DbOrTx,
  row: { orderId: number | null; customerId: number | null; strategyId: string | null; entryType: OrderEntryType | null; message: string } & AuditInstant,
): Promise<void> {
  const { at, ...values } = row;
  await db.insert(entryAudits).values({ ...values, datetimeInserted: at });
  await publishNotification(db, { type: NotificationType.EntryFailure, message: row.message });
}

/** An exit (by admin, by customer, by TP/SL on the exchange); failures also notify staff. */
export async function recordExitAudit(
  db: DbOrTx,
  row: { orderId: number | null; customerId: number | null; strategyId: string | null; exitType: ExitType | null; message: string; isError: boolean } & AuditInstant,
): Promise<void> {
  const { at, ...values } = row;
  await db.insert(exitAudits).values({ ...values, datetimeInserted: at });
  if (row.isError) await publishNotification(db, { type: NotificationType.ExitFailure, message: row.message });
}
