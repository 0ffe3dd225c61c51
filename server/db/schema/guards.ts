import { sql } from 'drizzle-orm';
import { check, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
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
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('customer_guards_max_notional_ck', sql`${t.maxNotionalUsdt} between 1 and 100000000`),
    check('customer_guards_max_leverage_ck', sql`${t.maxLeverage} between 1 and 125`),
    check('customer_guards_max_open_positions_ck', sql`${t.maxOpenPositions} between 1 and 1000`),
    check('customer_guards_min_free_balance_ck', sql`${t.minFreeBalanceUsdt} between 1 and 100000000`),
  ],
);
