import { eq, inArray } from 'drizzle-orm';
import { accountCreateBody } from '../../contract/api/account';
import { AccountStatus, AccountType } from '../../contract/enums';
import type { Deps } from '../deps';
import { accounts, countries } from '../db/schema/index';
import { logStaffAction } from '../lib/staff-log';
import { insertAccount } from '../modules/accounts/repository';
import { DEMO_PASSWORD, type DemoPerson } from './data';

export type CountryIds = Map<string, { id: number; dialCode: string }>;

export async function countryIds(deps: Pick<Deps, 'db'>, codes: string[]): Promise<CountryIds> {
  const rows = await deps.db.select().from(countries).where(inArray(countries.countryCode, codes));
  return new Map(rows.map((row) => [row.countryCode, { id: row.id, dialCode: row.dialCode }]));
}

/** The account row of a person the CLI created (the demo's admin) dated at `at`, when the demo history says they joined. */
export async function backdateAccount(deps: Pick<Deps, 'db'>, accountId: number, at: Date): Promise<void> {
  await deps.db.update(accounts).set({ datetimeInserted: at, datetimeUpdated: at }).where(eq(accounts.id, accountId));
}

/** A phone number with the country's dial code, stable per person. */
export function phoneOf(dialCode: string, seed: number): string {
  return `${dialCode}${String(80_000_000 + ((seed * 7_919) % 19_999_999))}`;
}

/**
 * What POST /api/account does for a staff form: the same body validation, insertAccount, and the
 * staff action log in one transaction, dated at the clock's (backdated) instant. Customers start
 * Pending; agents and staff Active.
 */
export async function createAccountAsStaff(
  deps: Pick<Deps, 'db' | 'clock'>,
  adminAccountId: number,
  person: DemoPerson,
  accountType: AccountType,
  country: { id: number; dialCode: string },
  seed: number,
): Promise<number> {
  const body = accountCreateBody.parse({
    firstName: person.firstName,
    lastName: person.lastName,
    email: person.email,
    age: person.age,
    phone: phoneOf(country.dialCode, seed),
    countryId: country.id,
    gender: person.gender,
    password: DEMO_PASSWORD,
    accountType,
  });
  return deps.db.transaction(async (tx) => {
    const status = accountType === AccountType.Customer ? AccountStatus.Pending : AccountStatus.Active;
    const accountId = await insertAccount(tx, { ...body, status, joinedAt: deps.clock.now() });
    await logStaffAction(tx, { actorAccountId: adminAccountId, action: 'create', targetType: 'account', targetId: accountId, details: { accountType } });
    return accountId;
  });
}
