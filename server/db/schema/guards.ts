import { sql } from 'drizzle-orm';
import { check, decimal, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { customers } from './people';

/**
 * A customer's guards (issue 29), one row while any is set: each entry for them is checked against
 * these before it is sent, and skipped with the reason in its entry audit when it would break one.
 * Read with the execution's context (SQL function `execution_contexts`); who changed them is in the staff log.
 */
export const customerGuards = pgTable(
  'customer_guards',
  {
    customerId: integer()
      .primaryKey()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** The most one entry may be worth (quantity x price), in whole USDT. */
    maxNotionalUsdt: integer(),
    /** The highest leverage a strategy may trade this account at. */
    maxLeverage: integer(),
    /** The most positions (symbol and side) the platform holds open on the account at once. */
    maxOpenPositions: integer(),
    /** The free USDT the account must keep: below it (read from the exchange at entry), no new entry. */
    minFreeBalanceUsdt: integer(),
    /** Realized losses since 00:00 UTC (net of fees and funding) reaching this pause the customer's copying. */
    dailyLossLimitUsdt: integer(),
    /** The account's equity this many percent below its high-water mark pauses the customer's copying. */
    maxDrawdownPct: integer(),
    /** Once a loss guard paused copying: 'staff' (until an admin resumes it) or 'next_day' (at the next 00:00 UTC). */
    lossGuardResume: text().notNull().default('staff'),
    /** The highest equity read (USDT) while the drawdown guard is set. */
    equityHighWater: decimal(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('customer_guards_max_notional_ck', sql`${t.maxNotionalUsdt} between 1 and 100000000`),
    check('customer_guards_max_leverage_ck', sql`${t.maxLeverage} between 1 and 125`),
    check('customer_guards_max_open_positions_ck', sql`${t.maxOpenPositions} between 1 and 1000`),
    check('customer_guards_min_free_balance_ck', sql`${t.minFreeBalanceUsdt} between 1 and 100000000`),
    check('customer_guards_daily_loss_ck', sql`${t.dailyLossLimitUsdt} between 1 and 100000000`),
    check('customer_guards_max_drawdown_ck', sql`${t.maxDrawdownPct} between 1 and 99`),
    check('customer_guards_loss_resume_ck', sql`${t.lossGuardResume} in ('staff', 'next_day')`),
  ],
);
