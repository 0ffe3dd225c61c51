import { sql } from 'drizzle-orm';
import { NotificationType } from '../../contract/enums';
import type { Db } from '../db/client';
import { publishNotification } from '../lib/notify';
import { logStaffAction } from '../lib/staff-log';

/**
 * A customer's loss guards (issue 29, table customer_guards): a daily loss limit, checked when a position
 * closes, and a maximum drawdown from the high-water mark of the account's equity, checked when the wallet
 * is read. Either pauses the customer's copying (a `trading_pauses` row with its reason: new entries for
 * them are skipped, open positions keep their protection) until an admin resumes it or, when the guard says
 * so, the next 00:00 UTC. Staff are notified and the staff log keeps it; the customer's dashboard says why.
 */

type Resume = 'staff' | 'next_day';

const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
const nextUtcDay = (at: Date) => new Date(startOfUtcDay(at).getTime() + 86_400_000);

const untilText = (resume: Resume) => (resume === 'next_day' ? 'until 00:00 UTC' : 'until an admin resumes it');

/** Pauses the customer's copying unless a pause is already in force; answers whether it paused now. */
async function pauseForLoss(db: Db, customerId: number, reason: string, resume: Resume, at: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`delete from trading_pauses where customer_id = ${customerId} and resume_at <= ${at.toISOString()}`);
    const resumeAt = resume === 'next_day' ? nextUtcDay(at).toISOString() : null;
    const inserted = await tx.execute(sql`
      insert into trading_pauses (scope, customer_id, paused_at, reason, resume_at)
      values ('customer', ${customerId}, ${at.toISOString()}, ${reason}, ${resumeAt})
      on conflict do nothing returning id`);
    if ((inserted.rowCount ?? 0) === 0) return false;
    await logStaffAction(tx, { actorAccountId: null, action: 'customer.pause', targetType: 'customer', targetId: customerId, details: { reason, resumeAt } });
    await publishNotification(tx, { type: NotificationType.ExitFailure, message: `Customer ${customerId}: ${reason}; their copying is paused ${untilText(resume)}` });
    return true;
  });
}

/** After a close: the customer's realized PnL since 00:00 UTC (net of fees and funding) against their daily loss limit. */
export async function applyDailyLossGuard(db: Db, customerId: number, at: Date): Promise<boolean> {
  const result = await db.execute<{ limit_usdt: number; resume: Resume; pnl: string }>(sql`
    select g.daily_loss_limit_usdt limit_usdt, g.loss_guard_resume resume,
      (select coalesce(sum(e.realized_pnl), 0) from executions e
       where e.customer_id = g.customer_id and e.state = 'closed' and e.closed_at >= ${startOfUtcDay(at).toISOString()}) pnl
    from customer_guards g where g.customer_id = ${customerId} and g.daily_loss_limit_usdt is not null`);
  const guard = result.rows[0];
  if (!guard || -Number(guard.pnl) < guard.limit_usdt) return false;
  const reason = `Daily loss limit reached: ${(-Number(guard.pnl)).toFixed(2)} USDT lost today (net of fees and funding), limit ${guard.limit_usdt} USDT`;
  return pauseForLoss(db, customerId, reason, guard.resume, at);
}

/** After a wallet read: the high-water mark follows the equity up, and a fall from it past the maximum drawdown pauses. */
export async function applyDrawdownGuard(db: Db, customerId: number, equity: number, at: Date): Promise<boolean> {
  const result = await db.execute<{ high: string; pct: number; resume: Resume }>(sql`
    update customer_guards set equity_high_water = greatest(coalesce(equity_high_water, ${equity}), ${equity})
    where customer_id = ${customerId} and max_drawdown_pct is not null
    returning equity_high_water high, max_drawdown_pct pct, loss_guard_resume resume`);
  const guard = result.rows[0];
  const high = Number(guard?.high ?? 0);
  if (!guard || high <= 0) return false;
  const drawdownPct = ((high - equity) / high) * 100;
  if (drawdownPct < guard.pct) return false;
  const reason = `Maximum drawdown reached: equity ${equity.toFixed(2)} USDT is ${drawdownPct.toFixed(1)} % below its high of ${high.toFixed(2)} USDT, limit ${guard.pct} %`;
  return pauseForLoss(db, customerId, reason, guard.resume, at);
}
