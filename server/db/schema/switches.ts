import { sql } from 'drizzle-orm';
import { check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { customers } from './people';
import { strategies } from './trading';

/**
 * Kill switches in force (issue 29): one row per paused scope, deleted on resume. `platform` pauses
 * every entry alert, `strategy` one strategy's entry alerts, `customer` one customer's copying (every
 * new entry for them), by staff or by a loss guard (`reason`, and `resume_at` when it ends by itself). Close
 * alerts and open positions' protection go on. Read by the SQL functions
 * `receive_alert` and `enqueue_order` (server/db/functions/alert-intake.sql); who paused and resumed is in the staff log.
 */
export const tradingPauses = pgTable(
  'trading_pauses',
  {
    id: serial().primaryKey(),
    scope: text().notNull(),
    strategyId: text().references(() => strategies.id, { onDelete: 'cascade' }),
    customerId: integer().references(() => customers.id, { onDelete: 'cascade' }),
    pausedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    pausedBy: integer().references(() => accounts.id, { onDelete: 'set null' }),
    /** Why a loss guard paused a customer (null: paused by staff). */
    reason: text(),
    /** When a guard's pause ends by itself (the next day); null: until staff resume it. */
    resumeAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('trading_pauses_platform_uq').on(t.scope).where(sql`${t.scope} = 'platform'`),
    uniqueIndex('trading_pauses_strategy_uq').on(t.strategyId),
    uniqueIndex('trading_pauses_customer_uq').on(t.customerId),
    check(
      'trading_pauses_scope_ck',
      sql`(${t.scope} = 'platform' and ${t.strategyId} is null and ${t.customerId} is null)
        or (${t.scope} = 'strategy' and ${t.strategyId} is not null and ${t.customerId} is null)
        or (${t.scope} = 'customer' and ${t.customerId} is not null and ${t.strategyId} is null)`,
    ),
  ],
);
