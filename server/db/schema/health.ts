import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { customers } from './people';

/**
 * What the last wallet sync learned about each connected customer's exchange key (Account Health
 * Check, /activity/account). One row per customer, replaced on every sync.
 */
export const customerHealth = pgTable(
  'customer_health',
  {
    customerId: integer()
      .primaryKey()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** null until the exchange has answered once. */
    keyValid: boolean(),
    canTrade: boolean(),
    canWithdraw: boolean(),
    ipBound: boolean(),
    /** 'oneway' | 'hedge', when the exchange tells. */
    positionMode: text(),
    /** Last attempt, successful or not. */
    checkedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    /** Last time the wallet amount was read from the exchange. */
    lastSyncAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** The staff message of the last failure; null after a clean sync. */
    lastError: text(),
    /** When staff were last told that this key can withdraw (told once per key). */
    withdrawalAlertedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('customer_health_problem_idx').on(t.keyValid, t.canWithdraw),
    check('customer_health_mode_ck', sql`${t.positionMode} is null or ${t.positionMode} in ('oneway', 'hedge')`),
  ],
);
