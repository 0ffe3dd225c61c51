import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { AccountStatus, AccountType } from '../../contract/enums';
import { agents, countries, customers, employees } from '../../server/db/schema/index';
import { insertAccount } from '../../server/modules/accounts/repository';
import type { TestContext } from './test-app';

export const PASSWORD = 'correct horse battery';

export interface Person {
  accountId: number;
  email: string;
  password: string;
  /** agents.id, customers.id or employees.id, depending on the role. */
  roleId: number;
  token?: string;
}

let counter = 0;
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${counter}.${randomBytes(3).toString('hex')}@example.com`;
}

export async function countryId(ctx: TestContext, code = 'SG'): Promise<number> {
  const [row] = await ctx.deps.db.select({ id: countries.id }).from(countries).where(eq(countries.countryCode, code));
  return row!.id;
}

/**
 * Inserts a person through the same repository code the API uses. For API-level setup of the
 * back-office flows use the endpoints themselves.
 */
export async function createPerson(
  ctx: TestContext,
  accountType: AccountType,
  options: { status?: AccountStatus; email?: string; agentId?: number; group?: number | null; country?: string; firstName?: string; lastName?: string } = {},
): Promise<Person> {
  const email = options.email ?? uniqueEmail(`type${accountType}`);
  const status = options.status ?? (accountType === AccountType.Customer ? AccountStatus.Active : AccountStatus.Active);
  const cid = await countryId(ctx, options.country);
  return ctx.deps.db.transaction(async (tx) => {
    const accountId = await insertAccount(tx, {
      firstName: options.firstName ?? 'Test',
      lastName: options.lastName ?? `Person${counter}`,
      email,
      age: 30,
      phone: '+6591234567',
      countryId: cid,
      gender: 1,
      password: PASSWORD,
      accountType,
      status,
    });
    let roleId = accountId;
    if (accountType === AccountType.Agent) {
      roleId = (await tx.insert(agents).values({ accountId }).returning())[0]!.id;
    } else if (accountType === AccountType.Employee || accountType === AccountType.Admin) {
      roleId = (await tx.insert(employees).values({ accountId }).returning())[0]!.id;
    } else {
      roleId = (
        await tx
          .insert(customers)
          .values({ accountId, agentId: options.agentId ?? null, group: options.group === undefined ? 1 : options.group, applicationSource: 1 })
          .returning()
      )[0]!.id;
    }
    return { accountId, email, password: PASSWORD, roleId };
  });
}

/** The whole login: password, emailed code, token. */
export async function loginAs(ctx: TestContext, person: Pick<Person, 'email' | 'password'>): Promise<string> {
  const login = await ctx.api('POST', '/api/security/login', { body: { email: person.email, password: person.password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.body.error?.message}`);
  const code = ctx.lastCode(person.email);
  const verify = await ctx.api('POST', '/api/security/email/verify', { body: { code, accountId: login.body.data.accountId } });
  if (verify.status !== 200) throw new Error(`verify failed: ${verify.status} ${verify.body.error?.message}`);
  return verify.body.data.accessToken.value as string;
}

export async function personWithToken(ctx: TestContext, accountType: AccountType, options?: Parameters<typeof createPerson>[2]): Promise<Person & { token: string }> {
  const person = await createPerson(ctx, accountType, options);
  return { ...person, token: await loginAs(ctx, person) };
}
