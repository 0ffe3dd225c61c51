import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, RegistrationIdStatus } from '../../contract/enums';
import { server as messages } from '../../contract/messages';
import { accounts, registrationIds } from '../../server/db/schema/index';
import { DAY_MS } from '../../server/lib/clock';
import { countryId, personWithToken, uniqueEmail, PASSWORD, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let agent: Person & { token: string };
let admin: string;
let country: number;

const newCode = async (): Promise<string> => (await ctx.api('POST', '/api/registrationid', { token: agent.token })).body.data.code;
const statusOf = async (code: string): Promise<number> => {
  const res = await ctx.api('POST', '/api/registrationid/search', { token: agent.token, body: { filter: [{ name: 'code', value: code }] } });
  return res.body.data.data[0].status;
};
const register = (code: string, email: string) =>
  ctx.api('POST', '/api/security/register', {
    body: { registrationId: code, firstName: 'race', lastName: 'runner', email, age: 30, phone: '+6591113333', countryId: country, gender: 2, password: PASSWORD },
  });

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.set(new Date('2026-01-05T10:00:00.000Z'));
  country = await countryId(ctx, 'SG');
  agent = await personWithToken(ctx, AccountType.Agent);
  admin = (await personWithToken(ctx, AccountType.Admin)).token;
});
afterAll(async () => ctx?.close());

describe('Registration ID expiry (14 days, derived from the clock)', () => {
  it('stays Pending until exactly 14 days after creation, then reads Expired everywhere', async () => {
    const code = await newCode();
    const used = await newCode();
    expect((await register(used, uniqueEmail('early'))).status).toBe(200);

    ctx.clock.advance(14 * DAY_MS - 1);
    expect(await statusOf(code)).toBe(RegistrationIdStatus.Pending);
    const verifyJustBefore = await ctx.api('POST', '/api/security/registrationid/verify', { body: { registrationId: code } });
    expect(verifyJustBefore.status).toBe(200);
    expect((await ctx.api('GET', '/api/registrationid/statistics', { token: agent.token })).body.data).toEqual({ used: 1, pending: 1, expired: 0 });

    ctx.clock.advance(1);
    expect(await statusOf(code)).toBe(RegistrationIdStatus.Expired);
    // A used code stays Registered however old it is.
    expect(await statusOf(used)).toBe(RegistrationIdStatus.Registered);
    expect((await ctx.api('GET', '/api/registrationid/statistics', { token: agent.token })).body.data).toEqual({ used: 1, pending: 0, expired: 1 });
    expect((await ctx.api('GET', '/api/registrationid/statistics', { token: admin })).body.data).toEqual({ used: 1, pending: 0, expired: 1 });
    const expired = await ctx.api('POST', '/api/registrationid/search', { token: agent.token, body: { filter: [{ name: 'status', value: RegistrationIdStatus.Expired }] } });
    expect(expired.body.data.data.map((row: { code: string }) => row.code)).toEqual([code]);

    const verify = await ctx.api('POST', '/api/security/registrationid/verify', { body: { registrationId: code } });
    expect(verify.status).toBe(404);
    expect(verify.body.error?.message).toBe(messages.registrationIdExpired);
    const signup = await register(code, uniqueEmail('late'));
    expect(signup.status).toBe(404);
    expect(signup.body.error?.message).toBe(messages.registrationIdExpired);

    // Nothing was written to make it expire: the row is as it was created.
    const [row] = await ctx.deps.db.select().from(registrationIds).where(sql`${registrationIds.code} = ${code}`);
    expect(row).toMatchObject({ usedAt: null, usedByAccountId: null });
  });
});

describe('Registration ID single use under a race', () => {
  it('two registrations racing on one code give exactly one 200 and one account', async () => {
    for (let round = 0; round < 3; round++) {
      const code = await newCode();
      const emails = [uniqueEmail('racer-a'), uniqueEmail('racer-b')];
      const answers = await Promise.all(emails.map((email) => register(code, email)));
      const statuses = answers.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 404]);
      const loser = answers.find((answer) => answer.status === 404)!;
      expect(loser.body.error?.message).toBe(messages.registrationIdUsed);
      const created = await ctx.deps.db.select({ id: accounts.id }).from(accounts).where(inArray(accounts.email, emails));
      expect(created).toHaveLength(1);
      const [row] = await ctx.deps.db.select().from(registrationIds).where(sql`${registrationIds.code} = ${code}`);
      expect(row!.usedByAccountId).toBe(created[0]!.id);
      expect(await statusOf(code)).toBe(RegistrationIdStatus.Registered);
    }
  });
});
