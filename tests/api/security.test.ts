import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AccountStatus, AccountType } from '../../contract/enums';
import { server as messages, validation } from '../../contract/messages';
import { signInPolicy, throttleMessages } from '../../server/modules/auth/sign-in-throttle';
import { createPerson, loginAs, PASSWORD, personWithToken, uniqueEmail } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const codeOf = (ctx: TestContext, email: string) => ctx.lastCode(email);
/** Reset mails are sent after the answer (so answers take alike for every email): wait for the next one. */
async function nextMail(ctx: TestContext, email: string, before: number) {
  await vi.waitFor(() => expect(ctx.mails(email).length).toBeGreaterThan(before), { timeout: 10_000, interval: 20 });
  return ctx.mails(email).at(-1)!;
}
const wrongCode = (right: string) => String((Number(right) + 1) % 1_000_000).padStart(6, '0');

describe('second factor', () => {
  it('refuses the sixth try even when it is the right code', async () => {
    const person = await createPerson(ctx, AccountType.Employee);
    const login = await ctx.api('POST', '/api/security/login', { body: { email: person.email, password: PASSWORD } });
    const right = codeOf(ctx, person.email);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const answer = await ctx.api('POST', '/api/security/email/verify', { body: { code: wrongCode(right), accountId: login.body.data.accountId } });
      expect(answer.status, `attempt ${attempt}`).toBe(attempt < 5 ? 400 : 429);
    }
    const sixth = await ctx.api('POST', '/api/security/email/verify', { body: { code: right, accountId: person.accountId } });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error?.message).toBe(messages.tooManyCodeAttempts);
  });

  it('makes a code single use and expires it after 10 minutes', async () => {
    const person = await createPerson(ctx, AccountType.Agent);
    await ctx.api('POST', '/api/security/login', { body: { email: person.email, password: PASSWORD } });
    const code = codeOf(ctx, person.email);
    const first = await ctx.api('POST', '/api/security/email/verify', { body: { code, accountId: person.accountId } });
    expect(first.status).toBe(200);
    const again = await ctx.api('POST', '/api/security/email/verify', { body: { code, accountId: person.accountId } });
    expect(again.status).toBe(400);

    await ctx.api('POST', '/api/security/login', { body: { email: person.email, password: PASSWORD } });
    const late = codeOf(ctx, person.email);
    ctx.clock.advance(10 * 60 * 1000 + 1);
    const expired = await ctx.api('POST', '/api/security/email/verify', { body: { code: late, accountId: person.accountId } });
    expect(expired.status).toBe(400);
    expect(expired.body.error?.message).toBe(messages.invalidCode);
  });

  it('resends a code only after a password check, and not twice within 30 seconds', async () => {
    const person = await createPerson(ctx, AccountType.Agent);
    const early = await ctx.api('POST', '/api/security/email/requestverification', { body: { accountId: person.accountId, email: person.email } });
    expect(early.status).toBe(400);
    await ctx.api('POST', '/api/security/login', { body: { email: person.email, password: PASSWORD } });
    const throttled = await ctx.api('POST', '/api/security/email/requestverification', { body: { accountId: person.accountId, email: person.email } });
    expect(throttled.status).toBe(429);
    expect(throttled.body.error?.message).toBe(messages.codeResendThrottled);
    ctx.clock.advance(31_000);
    const resent = await ctx.api('POST', '/api/security/email/requestverification', { body: { accountId: person.accountId, email: person.email } });
    expect(resent.status).toBe(200);
    const code = codeOf(ctx, person.email);
    const verify = await ctx.api('POST', '/api/security/email/verify', { body: { code, accountId: person.accountId } });
    expect(verify.status).toBe(200);
  });
});

describe('rate limits', () => {
  it('hold across two app instances on one database', async () => {
    const second = await createTestContext({ database: ctx.database });
    second.clock.set(ctx.clock.now());
    const login = (target: TestContext, password: string) =>
      target.app.inject({ method: 'POST', url: '/api/security/login', payload: { email: person.email, password }, remoteAddress: '127.0.0.9' });
    const person = await createPerson(ctx, AccountType.Agent);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < signInPolicy.freeFailures + 1; i++) statuses.push((await login(i % 2 === 0 ? ctx : second, 'wrong password')).statusCode);
      expect(statuses).toEqual([...Array<number>(signInPolicy.freeFailures).fill(401), 429]);
      // The address waits, even with the right password, and the answer says how long.
      const right = await login(second, PASSWORD);
      expect([right.statusCode, right.json().error.message, right.headers['retry-after']]).toEqual([429, throttleMessages.slowDown(1), '1']);
      ctx.clock.advance(signInPolicy.firstDelayMs);
      second.clock.advance(signInPolicy.firstDelayMs);
      expect((await login(ctx, PASSWORD)).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe('sessions', () => {
  it('are revoked at logout and when the account is blocked', async () => {
    const admin = await personWithToken(ctx, AccountType.Admin);
    const agent = await personWithToken(ctx, AccountType.Agent);
    const logout = await ctx.api('POST', '/api/security/logout', { token: agent.token });
    expect(logout.status).toBe(200);
    expect((await ctx.api('GET', '/api/account', { token: agent.token })).status).toBe(401);

    const token = await loginAs(ctx, agent);
    const block = await ctx.api('PATCH', `/api/security/status/${agent.accountId}`, { token: admin.token, body: { status: AccountStatus.Blocked } });
    expect(block.body).toEqual({ successful: true, data: { id: agent.accountId, status: AccountStatus.Blocked }, error: null });
    expect((await ctx.api('GET', '/api/account', { token })).status).toBe(401);
    const login = await ctx.api('POST', '/api/security/login', { body: { email: agent.email, password: PASSWORD } });
    expect(login.status).toBe(403);
    expect(login.body.error?.message).toBe(messages.inactive);
  });

  it('expire after 30 days', async () => {
    const person = await personWithToken(ctx, AccountType.Employee);
    ctx.clock.advance(30 * 24 * 60 * 60 * 1000 + 1);
    expect((await ctx.api('GET', '/api/account', { token: person.token })).status).toBe(401);
  });
});

describe('passwords', () => {
  it('resets through the emailed code and ends other sessions', async () => {
    const person = await personWithToken(ctx, AccountType.Employee);
    const before = ctx.mails(person.email).length;
    const forgot = await ctx.api('POST', '/api/security/password/forgot', { body: { email: person.email } });
    expect(forgot.body.data).toEqual({ email: person.email, accountId: expect.stringMatching(/^[A-Za-z0-9_-]{60,120}$/) });
    const code = /\b(\d{6})\b/.exec((await nextMail(ctx, person.email, before)).text)![1]!;
    const numeric = await ctx.api('POST', '/api/security/password/verify', { body: { code, accountId: String(person.accountId), password: 'a brand new password' } });
    expect(numeric.status).toBe(400);
    const reset = await ctx.api('POST', '/api/security/password/verify', { body: { code, accountId: forgot.body.data.accountId, password: 'a brand new password' } });
    expect(reset.status).toBe(200);
    expect((await ctx.api('GET', '/api/account', { token: person.token })).status).toBe(401);
    expect((await ctx.api('POST', '/api/security/login', { body: { email: person.email, password: PASSWORD } })).status).toBe(401);
    expect((await ctx.api('POST', '/api/security/login', { body: { email: person.email, password: 'a brand new password' } })).status).toBe(200);
  });

  it('answers forgot-password the same way for unknown emails and sends no code to customers', async () => {
    const unknown = await ctx.api('POST', '/api/security/password/forgot', { body: { email: 'nobody.here@example.com' } });
    expect(unknown.status).toBe(200);
    expect(Object.keys(unknown.body.data).sort()).toEqual(['accountId', 'email']);
    const customer = await createPerson(ctx, AccountType.Customer);
    const answer = await ctx.api('POST', '/api/security/password/forgot', { body: { email: customer.email } });
    expect(answer.status).toBe(200);
    const mail = await nextMail(ctx, customer.email, 0);
    expect(mail?.text).toMatch(/contact/);
    expect(mail?.text).not.toMatch(/\b\d{6}\b/);
  });

  it('changes the own password with a token and the current password, and says "Error get account" without a token', async () => {
    const person = await personWithToken(ctx, AccountType.Agent);
    const noToken = await ctx.api('POST', '/api/security/password/reset', { body: { currentPassword: PASSWORD, password: 'another password' } });
    expect(noToken.status).toBe(401);
    expect(noToken.body.error?.message).toBe(messages.errorGetAccount);
    const ok = await ctx.api('POST', '/api/security/password/reset', { token: person.token, body: { currentPassword: PASSWORD, password: 'another password' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ success: true, accessToken: { value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiresAt: expect.any(String) } });
    // The session used for the change is replaced by the one in the answer.
    expect((await ctx.api('GET', '/api/account', { token: person.token })).status).toBe(401);
    const fresh = ok.body.data.accessToken.value as string;
    expect((await ctx.api('GET', '/api/account', { token: fresh })).status).toBe(200);
    const short = await ctx.api('POST', '/api/security/password/reset', { token: fresh, body: { currentPassword: 'another password', password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error?.message).toBe('body.password: Password must be at least 8 characters');
  });

  it.each([AccountType.Customer, AccountType.Agent, AccountType.Employee, AccountType.Admin])(
    'asks account type %i for the current password: a stolen session token alone cannot take the account over',
    async (accountType) => {
      const person = await personWithToken(ctx, accountType);
      const missing = await ctx.api('POST', '/api/security/password/reset', { token: person.token, body: { password: 'taken over 123' } });
      expect([missing.status, missing.body.error?.message]).toEqual([400, 'body.currentPassword: Enter your current password']);
      const wrong = await ctx.api('POST', '/api/security/password/reset', { token: person.token, body: { currentPassword: 'a guess', password: 'taken over 123' } });
      expect([wrong.status, wrong.body]).toEqual([400, { successful: false, data: null, error: { message: messages.currentPasswordWrong } }]);
      // Nothing changed: the session still works and the old password still signs in.
      expect((await ctx.api('GET', '/api/account', { token: person.token })).status).toBe(200);
      expect((await ctx.api('POST', '/api/security/login', { body: { email: person.email, password: PASSWORD } })).status).toBe(200);
    },
  );

  it('counts wrong current passwords like wrong sign-in passwords: a stolen token gets five free guesses, then waits', async () => {
    const person = await personWithToken(ctx, AccountType.Agent);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await ctx.api('POST', '/api/security/password/reset', { token: person.token, body: { currentPassword: `guess ${i}`, password: 'taken over 123' } })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
    const login = await ctx.api('POST', '/api/security/login', { body: { email: person.email, password: PASSWORD } });
    expect(login.status).toBe(429);
  });

  it("refuses an admin's reset of their own password without the current one", async () => {
    const admin = await personWithToken(ctx, AccountType.Admin);
    const own = await ctx.api('POST', `/api/security/password/reset/${admin.accountId}`, { token: admin.token, body: { password: 'no current 123' } });
    expect([own.status, own.body.error?.message]).toEqual([400, messages.ownPasswordNeedsCurrent]);
    expect((await ctx.api('POST', '/api/security/login', { body: { email: admin.email, password: PASSWORD } })).status).toBe(200);
  });

  it("lets an admin reset someone else's password, writing the staff log", async () => {
    const admin = await personWithToken(ctx, AccountType.Admin);
    const agent = await personWithToken(ctx, AccountType.Agent);
    const answer = await ctx.api('POST', `/api/security/password/reset/${agent.accountId}`, { token: admin.token, body: { password: 'set by admin 1' } });
    expect(answer.status).toBe(200);
    expect((await ctx.api('GET', '/api/account', { token: agent.token })).status).toBe(401);
    const missing = await ctx.api('POST', '/api/security/password/reset/987654', { token: admin.token, body: { password: 'set by admin 1' } });
    expect(missing.status).toBe(404);
    const log = await ctx.handle.pool.query("select action, target_id from staff_actions where action = 'password_reset' and target_id = $1", [String(agent.accountId)]);
    expect(log.rowCount).toBe(1);
  });
});

describe('status changes', () => {
  it('approve needs a group, and mail the customer when approved', async () => {
    const admin = await personWithToken(ctx, AccountType.Admin);
    const noGroup = await createPerson(ctx, AccountType.Customer, { status: AccountStatus.Pending, group: null });
    const refused = await ctx.api('PATCH', `/api/security/status/${noGroup.accountId}`, { token: admin.token, body: { status: AccountStatus.Active } });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(validation.selectGroupOrExclusive);

    const ready = await createPerson(ctx, AccountType.Customer, { status: AccountStatus.Pending, group: 1 });
    const approved = await ctx.api('PATCH', `/api/security/status/${ready.accountId}`, { token: admin.token, body: { status: AccountStatus.Active } });
    expect(approved.status).toBe(200);
    expect(ctx.mails(ready.email).at(-1)?.subject).toBe('Your account has been approved');
    const log = await ctx.handle.pool.query("select details from staff_actions where action = 'status_change' and target_id = $1", [String(ready.accountId)]);
    expect(log.rows[0].details).toEqual({ from: AccountStatus.Pending, to: AccountStatus.Active });
  });

  it('delete with status 0, refuse unknown statuses and the own account', async () => {
    const admin = await personWithToken(ctx, AccountType.Admin);
    const agent = await personWithToken(ctx, AccountType.Agent);
    const bad = await ctx.api('PATCH', `/api/security/status/${agent.accountId}`, { token: admin.token, body: { status: 9 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toMatch(/^body\.status: status must be 0 \(delete\)/);
    const self = await ctx.api('PATCH', `/api/security/status/${admin.accountId}`, { token: admin.token, body: { status: AccountStatus.Blocked } });
    expect(self.status).toBe(400);
    const del = await ctx.api('PATCH', `/api/security/status/${agent.accountId}`, { token: admin.token, body: { status: 0 } });
    expect(del.status).toBe(200);
    expect((await ctx.api('GET', '/api/account', { token: agent.token })).status).toBe(401);
    const again = await ctx.api('PATCH', `/api/security/status/${agent.accountId}`, { token: admin.token, body: { status: 0 } });
    expect(again.status).toBe(404);
    // The email is free again for a new account.
    const reused = await createPerson(ctx, AccountType.Agent, { email: agent.email });
    expect(reused.accountId).not.toBe(agent.accountId);
  });
});

describe('POST /api/account', () => {
  const body = async (accountType: number, email = uniqueEmail('new')) => ({
    firstName: 'jane',
    lastName: 'van der berg',
    email,
    age: 41,
    phone: '+6598765432',
    countryId: (await ctx.api('POST', '/api/country/search', { body: { filter: [{ name: 'name', value: 'Singapore' }] } })).body.data.data[0].id,
    gender: 2,
    password: 'long enough password',
    accountType,
  });

  it('lets an admin create any account type and capitalises names', async () => {
    const admin = await personWithToken(ctx, AccountType.Admin);
    const created = await ctx.api('POST', '/api/account', { token: admin.token, body: await body(AccountType.Agent) });
    expect(created.status).toBe(200);
    const row = await ctx.handle.pool.query('select first_name, last_name, status, account_type from accounts where id = $1', [created.body.data.id]);
    expect(row.rows[0]).toEqual({ first_name: 'Jane', last_name: 'Van Der Berg', status: AccountStatus.Active, account_type: AccountType.Agent });
  });

  it('lets an employee create customers only, pending approval', async () => {
    const employee = await personWithToken(ctx, AccountType.Employee);
    const agent = await ctx.api('POST', '/api/account', { token: employee.token, body: await body(AccountType.Agent) });
    expect(agent.status).toBe(403);
    const customer = await ctx.api('POST', '/api/account', { token: employee.token, body: await body(AccountType.Customer) });
    expect(customer.status).toBe(200);
    const row = await ctx.handle.pool.query('select status from accounts where id = $1', [customer.body.data.id]);
    expect(row.rows[0].status).toBe(AccountStatus.Pending);
  });

  it('refuses a taken email whatever its case, and explains bad fields', async () => {
    const admin = await personWithToken(ctx, AccountType.Admin);
    const dup = await ctx.api('POST', '/api/account', { token: admin.token, body: await body(AccountType.Customer, admin.email.toUpperCase()) });
    expect(dup.status).toBe(409);
    expect(dup.body.error?.message).toBe(messages.emailTaken);
    const invalid = { ...(await body(AccountType.Customer)), email: 'not-an-email', gender: 3 };
    const bad = await ctx.api('POST', '/api/account', { token: admin.token, body: invalid });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toContain('body.email: must be a valid email address');
    expect(bad.body.error?.message).toContain('body.gender: gender must be 1 (Male) or 2 (Female)');
    const missing = await ctx.api('POST', '/api/account', { token: admin.token, body: { email: uniqueEmail('x') } });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toMatch(/body\.\w+: is required/);
    const unknownCountry = await ctx.api('POST', '/api/account', { token: admin.token, body: { ...(await body(AccountType.Customer)), countryId: 99999 } });
    expect(unknownCountry.status).toBe(400);
  });
});

describe('input the server cannot use', () => {
  it('answers malformed JSON, wrong content types, huge bodies and unknown routes with a 4xx envelope', async () => {
    const malformed = await ctx.api('POST', '/api/security/login', { payload: '{"email": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ successful: false, data: null, error: { message: messages.malformedJson } });

    const wrongType = await ctx.api('POST', '/api/security/login', { payload: '<xml/>', headers: { 'content-type': 'application/xml' } });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.successful).toBe(false);

    const huge = await ctx.api('POST', '/api/security/login', { payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    expect(huge.status).toBe(413);
    expect(huge.body.error?.message).toMatch(/larger than/);

    const wrongTypes = await ctx.api('POST', '/api/security/login', { body: { email: 42, password: ['x'] } });
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.body.error?.message).toMatch(/^body\.email: /);

    const person = await personWithToken(ctx, AccountType.Agent);
    const bodiless = await ctx.api('POST', '/api/security/logout', { token: person.token, payload: '', headers: { 'content-type': 'application/json' } });
    expect(bodiless.status).toBe(200);
    const emptyForBody = await ctx.api('POST', '/api/security/login', { payload: '', headers: { 'content-type': 'application/json' } });
    expect(emptyForBody.status).toBe(400);
    expect(emptyForBody.body.error?.message).toBe('body: is required');

    const unknown = await ctx.api('GET', '/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe('Route GET /api/nothing-here does not exist');

    const badId = await ctx.api('POST', '/api/security/password/reset/abc', { token: (await personWithToken(ctx, AccountType.Admin)).token, body: { password: 'whatever long' } });
    expect(badId.status).toBe(400);
    expect(badId.body.error?.message).toBe('path.id: must be a number');
  });

  it('serves an OpenAPI document generated from the contract at /api/docs', async () => {
    const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(docs.statusCode).toBe(200);
    const doc = docs.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/security/login', '/api/account', '/api/country/search']));
    expect(doc.paths['/api/security/login'].post.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
  });

  it('sends strict security headers', async () => {
    const answer = await ctx.app.inject({ method: 'GET', url: '/api/account' });
    expect(answer.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('countries', () => {
  it('are public, paged by 32, searchable, with flags served by the app', async () => {
    const page = await ctx.api('POST', '/api/country/search', { body: {} });
    expect(page.body.data.data).toHaveLength(32);
    expect(page.body.data.paging.totalCount).toBeGreaterThan(240);
    const found = await ctx.api('POST', '/api/country/search', { body: { filter: [{ name: 'name', value: 'kingd' }], pageSize: 32, pageIndex: 0 } });
    expect(found.body.data.data.map((c: { countryCode: string }) => c.countryCode)).toContain('GB');
    const gb = found.body.data.data.find((c: { countryCode: string }) => c.countryCode === 'GB');
    expect(gb).toMatchObject({ name: 'United Kingdom', dialCode: '+44', imageUrl: '/flags/gb.svg' });
    const flag = await ctx.app.inject({ method: 'GET', url: gb.imageUrl });
    expect(flag.statusCode).toBe(200);
    expect(flag.headers['content-type']).toMatch(/svg/);
    const tooBig = await ctx.api('POST', '/api/country/search', { body: { pageSize: 500 } });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error?.message).toBe(`body.pageSize: ${messages.pageSizeTooLarge}`);
  });
});
