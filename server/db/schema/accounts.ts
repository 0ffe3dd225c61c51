import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const now = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const countries = pgTable(
  'countries',
  {
    id: serial().primaryKey(),
    name: text().notNull(),
    countryCode: text().notNull(),
    dialCode: text().notNull(),
  },
  (t) => [uniqueIndex('countries_code_uq').on(t.countryCode), index('countries_name_idx').on(sql`lower(${t.name})`)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: serial().primaryKey(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull(),
    age: integer(),
    phone: text(),
    gender: smallint(),
    countryId: integer().references(() => countries.id),
    status: smallint().notNull(),
    accountType: smallint().notNull(),
    passwordHash: text().notNull(),
    datetimeInserted: now(),
    datetimeUpdated: now(),
    deletedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('accounts_email_lower_uq').on(sql`lower(${t.email})`).where(sql`${t.deletedAt} is null`),
    index('accounts_type_status_idx').on(t.accountType, t.status),
    index('accounts_country_idx').on(t.countryId),
    index('accounts_inserted_idx').on(t.datetimeInserted),
    index('accounts_name_idx').on(sql`lower(${t.firstName} || ' ' || ${t.lastName})`),
    check('accounts_status_ck', sql`${t.status} between 1 and 5`),
    check('accounts_type_ck', sql`${t.accountType} between 1 and 4`),
    check('accounts_gender_ck', sql`${t.gender} is null or ${t.gender} in (1, 2)`),
    check('accounts_age_ck', sql`${t.age} is null or ${t.age} between 0 and 150`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    createdAt: now(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('sessions_token_uq').on(t.tokenHash), index('sessions_account_idx').on(t.accountId)],
);

/** Login and password-reset codes: stored hashed, single use, limited tries. */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    accountId: integer()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    purpose: text().notNull(),
    codeHash: text().notNull(),
    attempts: integer().notNull().default(0),
    createdAt: now(),
    expiresAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    consumedAt: timestamp({ withTimezone: true, mode: 'date' }),
    /** Login codes: the address that passed the password check; the code is accepted from there only. */
    address: text(),
  },
  (t) => [
    index('one_time_codes_account_idx').on(t.accountId, t.purpose, t.createdAt),
    check('one_time_codes_purpose_ck', sql`${t.purpose} in ('login', 'password_reset', 'new_device', 'kill_switch')`),
  ],
);

/** Fixed-window counters shared by every process of the app. */
export const rateLimits = pgTable('rate_limits', {
  key: text().primaryKey(),
  windowStart: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  hits: integer().notNull(),
});

/** Every staff action that changes an account, strategy or order. */
export const staffActions = pgTable(
  'staff_actions',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    actorAccountId: integer().references(() => accounts.id),
    action: text().notNull(),
    targetType: text().notNull(),
    targetId: text().notNull(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: now(),
  },
  (t) => [index('staff_actions_target_idx').on(t.targetType, t.targetId), index('staff_actions_created_idx').on(t.createdAt)],
);

export const settings = pgTable('settings', {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  updatedAt: now(),
});

