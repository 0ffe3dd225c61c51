import type { DbOrTx } from '../db/client';
import { staffActions } from '../db/schema/index';

export interface StaffAction {
  actorAccountId: number | null;
  action: string;
  targetType: 'account' | 'customer' | 'agent' | 'employee' | 'strategy' | 'order' | 'registrationId' | 'webhookGroup' | 'settings';
  targetId: string | number;
  details?: Record<string, unknown>;
}

/** Writes one row of the staff action log; call it inside the transaction that makes the change. */
export async function logStaffAction(db: DbOrTx, action: StaffAction): Promise<void> {
  await db.insert(staffActions).values({
    actorAccountId: action.actorAccountId,
    action: action.action,
    targetType: action.targetType,
    targetId: String(action.targetId),
    details: action.details ?? {},
  });
}
