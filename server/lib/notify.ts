import { sql } from 'drizzle-orm';
import type { NotificationType } from '../../contract/enums';
import type { DbOrTx } from '../db/client';

/** PostgreSQL channel carrying staff notifications to every process's websocket clients. */
export const NOTIFICATION_CHANNEL = 'staff_notifications';

export interface StaffNotification {
  type: NotificationType;
  message: string;
}

/** Publishes through NOTIFY; inside a transaction it is delivered only if the transaction commits. */
export async function publishNotification(db: DbOrTx, notification: StaffNotification): Promise<void> {
  await db.execute(sql`select pg_notify(${NOTIFICATION_CHANNEL}, ${JSON.stringify(notification)})`);
}
