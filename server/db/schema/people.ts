import { sql } from 'drizzle-orm';
import { check, index, integer, numeric, pgTable, serial, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';

const now = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const agents = pgTable(
  'agents',
  {
    id: serial().primaryKey(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    datetimeInserted: now(),
  },
  (t) => [uniqueIndex('agents_account_uq').on(t.accountId)],
);

/** Staff: employees (account type 3, "User") and admins (account type 4, "Super Admin"). */
export const employees = pgTable(
  'employees',
  {
    id: serial().primaryKey(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    datetimeInserted: now(),
  },
  (t) => [uniqueIndex('employees_account_uq').on(t.accountId)],
);

/**
 * Single-use codes an agent hands to a prospect. The status is derived, never stored:
 * Registered when used, Expired 14 days after creation, else Pending.
 */
export const registrationIds = pgTable(
  'registration_ids',
  {
    id: serial().primaryKey(),
    code: text().notNull(),
    agentId: integer()
      .notNull()
      .references(() => agents.id),
    createdByAccountId: integer().references(() => accounts.id),
    datetimeInserted: now(),
    usedAt: timestamp({ withTimezone: true, mode: 'date' }),
    usedByAccountId: integer().references(() => accounts.id),
  },
  (t) => [
    uniqueIndex('registration_ids_code_uq').on(t.code),
    index('registration_ids_agent_idx').on(t.agentId, t.datetimeInserted),
    check('registration_ids_used_ck', sql`(${t.usedAt} is null) = (${t.usedByAccountId} is null)`),
  ],
);

/** A sign-up between the account form and the exchange connect step (the spec's tempAccountId). */
export const pendingRegistrations = pgTable(
  'pending_registrations',
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    registrationIdId: integer()
      .notNull()
      .references(() => registrationIds.id),
    createdAt: now(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    completedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('pending_registrations_account_uq').on(t.accountId)],
);

export const customers = pgTable(
  'customers',
  {
    id: serial().primaryKey(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id),
    agentId: integer().references(() => agents.id),
    registrationIdId: integer().references(() => registrationIds.id),
    group: smallint(),
    applicationSource: smallint().notNull(),
    platformType: smallint().notNull().default(0),
    exchangeAccountUuid: text(),
    /** AES-256-GCM ciphertexts bound to the account id (server/lib/secrets.ts). */
    apiKeyEnc: text(),
    apiKeyLast4: text(),
    apiSecretEnc: text(),
    passphraseEnc: text(),
    currentWalletAmount: numeric({ precision: 24, scale: 8 }).notNull().default('0'),
    totalTransactions: integer().notNull().default(0),
    referralCode: text(),
    /** Profit-share percentage agreed at setup (terms of service). */
    profitSharePct: numeric({ precision: 5, scale: 2 }),
    datetimeInserted: now(),
  },
  (t) => [
    uniqueIndex('customers_account_uq').on(t.accountId),
    index('customers_agent_idx').on(t.agentId),
    index('customers_group_idx').on(t.group),
    index('customers_platform_idx').on(t.platformType),
    index('customers_wallet_idx').on(t.currentWalletAmount),
    check('customers_group_ck', sql`${t.group} is null or ${t.group} between 1 and 5`),
    check('customers_source_ck', sql`${t.applicationSource} in (1, 2)`),
    check('customers_platform_ck', sql`${t.platformType} between 0 and 4`),
    check('customers_profit_share_ck', sql`${t.profitSharePct} is null or ${t.profitSharePct} between 0 and 100`),
  ],
);
