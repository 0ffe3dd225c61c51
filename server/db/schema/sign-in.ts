import { bigserial, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

const at = () => timestamp({ withTimezone: true, mode: 'date' }).notNull();

/**
 * One row per wrong password, kept an hour: the sign-in throttle counts them per account and
 * address (slowing that address) and per account over every unfamiliar address (the hourly cap).
 * `subject` is a hash of the email as typed, so unknown emails are throttled alike.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    subject: text().notNull(),
    address: text().notNull(),
    failedAt: at(),
  },
  (t) => [index('sign_in_failures_subject_idx').on(t.subject, t.failedAt)],
);

/** Addresses an account completed a sign-in from (password and emailed code): its familiar addresses. */
export const signInAddresses = pgTable(
  'sign_in_addresses',
  {
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    address: text().notNull(),
    lastSignInAt: at(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.address] })],
);
