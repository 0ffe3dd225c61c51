import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Account } from '../../../contract/api/account';
import type { AccountStatus, AccountType, Gender } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { DbOrTx } from '../../db/client';
import { accounts, countries } from '../../db/schema/index';
import { badRequest, conflict } from '../../http/errors';
import { hashPassword } from '../../lib/passwords';
import { countryExists, toCountryRef } from '../countries/repository';

/** Columns of an account as the API shows it (never the password hash). */
export const accountColumns = {
  id: accounts.id,
  firstName: accounts.firstName,
  lastName: accounts.lastName,
  email: accounts.email,
  age: accounts.age,
  phone: accounts.phone,
  gender: accounts.gender,
  status: accounts.status,
  accountType: accounts.accountType,
  datetimeInserted: accounts.datetimeInserted,
  countryId: countries.id,
  countryName: countries.name,
  countryCode: countries.countryCode,
};

export type AccountRow = {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  age: number | null;
  phone: string | null;
  gender: number | null;
  status: number;
  accountType: number;
  datetimeInserted: Date;
  countryId: number | null;
  countryName: string | null;
  countryCode: string | null;
};

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    age: row.age,
    phone: row.phone,
    gender: row.gender,
    country:
      row.countryId !== null && row.countryName !== null && row.countryCode !== null
        ? toCountryRef({ id: row.countryId, name: row.countryName, countryCode: row.countryCode })
        : null,
    status: row.status,
    datetimeInserted: row.datetimeInserted.toISOString(),
    role: { accountType: row.accountType },
  };
}

export async function getAccount(db: DbOrTx, id: number): Promise<Account | undefined> {
  const [row] = await db
    .select(accountColumns)
    .from(accounts)
    .leftJoin(countries, eq(countries.id, accounts.countryId))
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt)))
    .limit(1);
  return row ? toAccount(row) : undefined;
}

export async function findAccountByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select({ id: accounts.id, email: accounts.email, status: accounts.status, accountType: accounts.accountType, passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(and(sql`lower(${accounts.email}) = lower(${email})`, isNull(accounts.deletedAt)))
    .limit(1);
  return row;
}

/** The account with its password hash, for checking the current password. */
export async function findAccountWithPassword(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: accounts.id, email: accounts.email, passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt)))
    .limit(1);
  return row;
}

export async function findAccountById(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: accounts.id, email: accounts.email, status: accounts.status, accountType: accounts.accountType, firstName: accounts.firstName })
    .from(accounts)
    .where(and(eq(accounts.id, id), isNull(accounts.deletedAt)))
    .limit(1);
  return row;
}

export interface NewAccount {
  firstName: string;
  lastName: string;
  email: string;
  age: number;
  phone: string;
  countryId: number;
  gender: Gender;
  password: string;
  accountType: AccountType;
  status: AccountStatus;
  /** When the account joined (the demo's history); the database's clock otherwise. */
  joinedAt?: Date;
}

/** Inserts an account after checking its country and that the email is free (case-insensitive). */
export async function insertAccount(db: DbOrTx, input: NewAccount): Promise<number> {
  if (!(await countryExists(db, input.countryId))) throw badRequest('countryId: no country with this id');
  if (await findAccountByEmail(db, input.email)) throw conflict(messages.emailTaken);
  const passwordHash = await hashPassword(input.password);
  try {
    const [row] = await db
      .insert(accounts)
      .values({
        firstName: capitalizeWords(input.firstName),
        lastName: capitalizeWords(input.lastName),
        email: input.email,
        age: input.age,
        phone: input.phone,
        countryId: input.countryId,
        gender: input.gender,
        passwordHash,
        accountType: input.accountType,
        status: input.status,
        ...(input.joinedAt ? { datetimeInserted: input.joinedAt, datetimeUpdated: input.joinedAt } : {}),
      })
      .returning({ id: accounts.id });
    return row!.id;
  } catch (error) {
    // Two requests racing on one email: the unique index decides.
    if (isUniqueViolation(error)) throw conflict(messages.emailTaken);
    throw error;
  }
}

export function capitalizeWords(value: string): string {
  return value
    .trim()
    .split(/\s+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}
