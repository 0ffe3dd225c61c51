import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, numeric, pgSequence, pgTable, serial, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
    // A code used with an email that already had an account is used up without an account of its own.
    check('registration_ids_used_ck', sql`${t.usedByAccountId} is null or ${t.usedAt} is not null`),
  ],
);

/**
 * A sign-up between the account form and the exchange connect step (the spec's tempAccountId).
 * `accountId` is null when the form's email already had an account: the sign-up then goes on
 * exactly like any other, and the connect step's callback says so (nothing before it tells).
 */
export const pendingRegistrations = pgTable(
  'pending_registrations',
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: integer().references(() => accounts.id, { onDelete: 'cascade' }),
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
    /**
     * Copies of the account's status, country, "not deleted" and names, kept by database triggers
     * (migrations customer_list_sync and customer_name_sync): the customer list filters, sorts and
     * counts on this table alone. Never written by the application.
     */
    accountStatus: smallint(),
    accountCountryId: integer(),
    accountLive: boolean().notNull().default(false),
    accountFirstName: text(),
    accountLastName: text(),
  },
  (t) => [
    uniqueIndex('customers_account_uq').on(t.accountId),
    /** An agent's own customer list, newest first or by wallet. */
    index('customers_agent_inserted_idx').on(t.agentId, t.datetimeInserted, t.id),
    index('customers_agent_wallet_idx').on(t.agentId, t.currentWalletAmount, t.id),
    index('customers_group_status_idx').on(t.group, t.accountStatus).where(sql`${t.accountLive}`),
    index('customers_platform_status_idx').on(t.platformType, t.accountStatus).where(sql`${t.accountLive}`),
    /*
     * The list's sorted walks (newest first, wallet, name) carry every filter column after the sort
     * keys, so filtering a page never reads the table; the newest-first one also carries the other
     * sort keys, so a month's customers sort from it. The status index carries them all: a
     * country or status filter reads its customers and sorts them from the index alone.
     */
    index('customers_live_inserted_idx')
      .on(t.datetimeInserted, t.id, t.accountStatus, t.accountCountryId, t.agentId, t.group, t.platformType, t.currentWalletAmount, t.accountFirstName, t.accountLastName)
      .where(sql`${t.accountLive}`),
    index('customers_live_wallet_idx')
      .on(t.currentWalletAmount, t.id, t.accountStatus, t.accountCountryId, t.agentId, t.group, t.platformType)
      .where(sql`${t.accountLive}`),
    index('customers_live_name_idx')
      .on(t.accountFirstName, t.accountLastName, t.id, t.accountStatus, t.accountCountryId, t.agentId, t.group, t.platformType)
      .where(sql`${t.accountLive}`),
    index('customers_live_status_idx')
      .on(t.accountStatus, t.accountCountryId, t.group, t.platformType, t.agentId, t.datetimeInserted, t.currentWalletAmount, t.accountFirstName, t.accountLastName, t.id)
      .where(sql`${t.accountLive}`),
    /** Full-name search (case-insensitive, partial): trigrams of "firstName lastName" (pg_trgm). */
    index('customers_live_fullname_trgm_idx')
      .using('gin', sql`(${t.accountFirstName} || ' ' || ${t.accountLastName}) gin_trgm_ops`)
      .where(sql`${t.accountLive}`),
    check('customers_group_ck', sql`${t.group} is null or ${t.group} between 1 and 5`),
    check('customers_source_ck', sql`${t.applicationSource} in (1, 2)`),
    check('customers_platform_ck', sql`${t.platformType} between 0 and 4`),
    check('customers_profit_share_ck', sql`${t.profitSharePct} is null or ${t.profitSharePct} between 0 and 100`),
  ],
);

/**
 * One row: bumped by a statement trigger (migration customer_list_version_sync) whenever customers
 * rows are inserted, deleted or change a column the customer list filters on, so a list count read
 * at one version stays exact until the next bump (server/db/list-cache.ts).
 */
export const customerListVersion = pgTable(
  'customer_list_version',
  {
    id: smallint().primaryKey().default(1),
    version: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [check('customer_list_version_one_row_ck', sql`${t.id} = 1`)],
);

/**
 * Moves on with every statement that writes a table a customer list row is read from (customers,
 * accounts, countries, agents, registration_ids), committed or not; read with
 * customer_list_settled_version() (migration customer_list_changes), which answers it only while no
 * such change is in flight. The lists keep whole answers per value (server/db/settled-answers.ts).
 */
export const customerListChanges = pgSequence('customer_list_changes');

/**
 * Moves on with every statement that writes a customer's wallet or transaction count (migration
 * customer_figure_changes): a kept customer list answer outlives such a change when the figures of
 * its own rows are still the ones it shows (server/modules/customers/repository.ts).
 */
export const customerFigureChanges = pgSequence('customer_figure_changes');
