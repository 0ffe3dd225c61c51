import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType } from '../../contract/enums';
import { server as messages } from '../../contract/messages';
import { registrationIds } from '../../server/db/schema/index';
import { humanCode } from '../../server/lib/tokens';
import { countryId, createPerson, PASSWORD, uniqueEmail, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let agent: Person;
beforeAll(async () => {
  ctx = await createTestContext();
  agent = await createPerson(ctx, AccountType.Agent);
});
afterAll(async () => ctx?.close());

async function newCode(createdAt = ctx.clock.now()): Promise<string> {
  const code = humanCode(12);
  await ctx.deps.db.insert(registrationIds).values({ code, agentId: agent.roleId, datetimeInserted: createdAt });
  return code;
}

const form = async (registrationId: string) => ({
  registrationId,
  firstName: 'ana',
  lastName: 'lima',
  email: uniqueEmail('signup'),
  age: 29,
  phone: '+5511987654321',
  countryId: await countryId(ctx, 'BR'),
  gender: 2,
  password: PASSWORD,
});

describe('registration ID verify', () => {
  it('accepts a pending code in any case and with spaces', async () => {
    const code = await newCode();
    const answer = await ctx.api('POST', '/api/security/registrationid/verify', { body: { registrationId: ` ${code.toLowerCase()} ` } });
    expect(answer.status).toBe(200);
    expect(answer.body.data.valid).toBe(true);
  });

  it('answers 404 with the reason for unknown, used and expired codes', async () => {
    const unknown = await ctx.api('POST', '/api/security/registrationid/verify', { body: { registrationId: 'NOPE' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe(messages.registrationIdInvalid);

    const old = await newCode(new Date(ctx.clock.now().getTime() - 14 * 24 * 3600 * 1000 - 1000));
    const expired = await ctx.api('POST', '/api/security/registrationid/verify', { body: { registrationId: old } });
    expect(expired.status).toBe(404);
    expect(expired.body.error?.message).toBe(messages.registrationIdExpired);

    const code = await newCode();
    expect((await ctx.api('POST', '/api/security/register', { body: await form(code) })).status).toBe(200);
    const used = await ctx.api('POST', '/api/security/registrationid/verify', { body: { registrationId: code } });
    expect(used.status).toBe(404);
    expect(used.body.error?.message).toBe(messages.registrationIdUsed);
  });

  it("stops admitting anyone with a blocked or deleted agent's codes", async () => {
    const other = await createPerson(ctx, AccountType.Agent);
    const code = humanCode(12);
    await ctx.deps.db.insert(registrationIds).values({ code, agentId: other.roleId, datetimeInserted: ctx.clock.now() });
    expect((await ctx.api('POST', '/api/security/registrationid/verify', { body: { registrationId: code } })).status).toBe(200);
    await ctx.handle.pool.query('update accounts set deleted_at = now() where id = $1', [other.accountId]);
    const answer = await ctx.api('POST', '/api/security/registrationid/verify', { body: { registrationId: code } });
    expect(answer.status).toBe(404);
    expect(answer.body.error?.message).toBe(messages.registrationIdInvalid);
    expect((await ctx.api('POST', '/api/security/register', { body: await form(code) })).status).toBe(404);
  });

  it('says what to enter when the code is empty', async () => {
    const empty = await ctx.api('POST', '/api/security/registrationid/verify', { body: { registrationId: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.error?.message).toBe('body.registrationId: Please, enter Registration ID');
  });
});

describe('register', () => {
  it('creates an Incomplete customer account, consumes the code and answers a temporary account id', async () => {
    const code = await newCode();
    const body = await form(code);
    const answer = await ctx.api('POST', '/api/security/register', { body });
    expect(answer.status).toBe(200);
    expect(answer.body.data.tempAccountId).toMatch(/^[0-9a-f-]{36}$/);
    const account = await ctx.handle.pool.query('select a.status, a.account_type, a.first_name from accounts a where lower(a.email) = $1', [body.email]);
    expect(account.rows[0]).toEqual({ status: AccountStatus.Incomplete, account_type: AccountType.Customer, first_name: 'Ana' });
    const pending = await ctx.handle.pool.query('select p.account_id, r.code, r.used_at is not null as used from pending_registrations p join registration_ids r on r.id = p.registration_id_id where p.id = $1', [answer.body.data.tempAccountId]);
    expect(pending.rows[0]).toMatchObject({ code, used: true });
    // The account cannot sign in until the exchange is connected.
    const login = await ctx.api('POST', '/api/security/login', { body: { email: body.email, password: PASSWORD } });
    expect(login.status).toBe(403);
  });

  it('keeps nothing when the code is unusable', async () => {
    const before = await ctx.handle.pool.query('select count(*)::int as n from accounts');
    const bad = await ctx.api('POST', '/api/security/register', { body: await form('UNKNOWNCODE1') });
    expect(bad.status).toBe(404);
    const after = await ctx.handle.pool.query('select count(*)::int as n from accounts');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('answers a taken email exactly like a free one: nothing tells them apart before the exchange code step', async () => {
    const accountsBefore = Number((await ctx.handle.pool.query('select count(*)::int as n from accounts')).rows[0].n);
    const free = await ctx.api('POST', '/api/security/register', { body: await form(await newCode()) });
    const takenCode = await newCode();
    const taken = await ctx.api('POST', '/api/security/register', { body: { ...(await form(takenCode)), email: agent.email.toUpperCase() } });
    for (const answer of [free, taken]) {
      expect([answer.status, Object.keys(answer.body.data)]).toEqual([200, ['tempAccountId']]);
      expect(answer.body.data.tempAccountId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      // The next steps answer alike too: the connect page gets its exchange URL for both.
      const connect = await ctx.api('GET', `/api/security/bybit/oauth/${answer.body.data.tempAccountId}`);
      expect([connect.status, connect.body.error]).toEqual([200, null]);
    }
    // Both Registration IDs are used up alike; only the free email got an account, and the agent's own is untouched.
    const used = await ctx.api('POST', '/api/security/registrationid/verify', { body: { registrationId: takenCode } });
    expect([used.status, used.body.error?.message]).toEqual([404, messages.registrationIdUsed]);
    expect(Number((await ctx.handle.pool.query('select count(*)::int as n from accounts')).rows[0].n)).toBe(accountsBefore + 1);
    const owner = await ctx.handle.pool.query('select status, first_name from accounts where id = $1', [agent.accountId]);
    expect(owner.rows[0]).toEqual({ status: AccountStatus.Active, first_name: 'Test' });
  });

  it('admits one sign-up per Registration ID: a second form with another email is refused, whatever the first email was', async () => {
    for (const firstEmail of [uniqueEmail('first'), agent.email]) {
      const code = await newCode();
      expect((await ctx.api('POST', '/api/security/register', { body: { ...(await form(code)), email: firstEmail } })).status).toBe(200);
      const again = await ctx.api('POST', '/api/security/register', { body: await form(code) });
      expect([again.status, again.body.error?.message]).toEqual([404, messages.registrationIdUsed]);
    }
  });

  it('validates the form', async () => {
    const code = await newCode();
    const answer = await ctx.api('POST', '/api/security/register', { body: { ...(await form(code)), phone: '12', age: -1 } });
    expect(answer.status).toBe(400);
    expect(answer.body.error?.message).toContain('body.age: age cannot be negative');
    expect(answer.body.error?.message).toContain('body.phone: phone must hold a dial code and number, digits only');
  });
});
