import { eq } from 'drizzle-orm';
import { AccountStatus, AccountType } from '../../contract/enums';
import type { Db } from '../db/client';
import { countries, employees } from '../db/schema/index';
import { findAccountByEmail, insertAccount } from '../modules/accounts/repository';

/** Creates an Admin (Super Admin) account with its staff record; no-op when the email exists. */
export async function ensureAdmin(db: Db, email: string, password: string): Promise<{ created: boolean; accountId: number }> {
  const existing = await findAccountByEmail(db, email);
  if (existing) return { created: false, accountId: existing.id };
  const [country] = await db.select({ id: countries.id }).from(countries).where(eq(countries.countryCode, 'SG')).limit(1);
  const accountId = await db.transaction(async (tx) => {
    const id = await insertAccount(tx, {
      firstName: 'Super',
      lastName: 'Admin',
      email,
      age: 30,
      phone: '+6500000000',
      countryId: country!.id,
      gender: 1,
      password,
      accountType: AccountType.Admin,
      status: AccountStatus.Active,
    });
    await tx.insert(employees).values({ accountId: id });
    return id;
  });
  return { created: true, accountId };
}
