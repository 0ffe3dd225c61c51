import type { DbOrTx } from '../../db/client';
import { amountEarned } from '../earnings/service';
import { countCustomers } from './repository';

/** First instant (UTC) of the month `offset` months away from the month of `now`. */
export function monthStart(now: Date, offset = 0): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
}

/** The agent dashboard: live customer count and the fees earned on this agent's customers. */
export async function agentDashboard(db: DbOrTx, now: Date, agentId: number) {
  const [totalCustomers, prevMonthAmountEarned, totalAmountEarned] = await Promise.all([
    countCustomers(db, agentId),
    amountEarned(db, { agentId, from: monthStart(now, -1), to: monthStart(now) }),
    amountEarned(db, { agentId }),
  ]);
  return { totalCustomers, prevMonthAmountEarned, totalAmountEarned };
}
