import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType } from '../../contract/enums';
import { server as messages } from '../../contract/messages';
import { createPerson, loginAs, PASSWORD } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

describe('login with an emailed code', () => {
  it('answers requires2FA, mails a code, and the code gives a token that GET /api/account accepts', async () => {
    const admin = await createPerson(ctx, AccountType.Admin);
    const login = await ctx.api('POST', '/api/security/login', { body: { email: admin.email.toUpperCase(), password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({
      successful: true,
      data: { requires2FA: true, accountId: admin.accountId, accountType: AccountType.Admin, email: admin.email },
      error: null,
    });
    const code = ctx.lastCode(admin.email);
    const verify = await ctx.api('POST', '/api/security/email/verify', { body: { code, accountId: admin.accountId } });
    expect(verify.status).toBe(200);
    const token = verify.body.data.accessToken.value;
    const me = await ctx.api('GET', '/api/account', { token });
    expect(me.status).toBe(200);
    expect(me.body.data.role.accountType).toBe(AccountType.Admin);
    expect(me.body.data.email).toBe(admin.email);
    expect(me.body.data).not.toHaveProperty('passwordHash');
  });

  it('refuses a wrong password with 401 and the same message as an unknown email', async () => {
    const person = await createPerson(ctx, AccountType.Agent);
    const wrong = await ctx.api('POST', '/api/security/login', { body: { email: person.email, password: 'not the password' } });
    const unknown = await ctx.api('POST', '/api/security/login', { body: { email: 'nobody@example.com', password: 'whatever1' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error?.message).toBe(unknown.body.error?.message);
  });

  it.each([AccountStatus.Blocked, AccountStatus.Rejected, AccountStatus.Incomplete])('answers 403 inactive for status %i', async (status) => {
    const person = await createPerson(ctx, AccountType.Customer, { status });
    const login = await ctx.api('POST', '/api/security/login', { body: { email: person.email, password: PASSWORD } });
    expect(login.status).toBe(403);
    expect(login.body.error?.message).toBe(messages.inactive);
  });

  it('lets a pending customer sign in', async () => {
    const person = await createPerson(ctx, AccountType.Customer, { status: AccountStatus.Pending });
    const token = await loginAs(ctx, person);
    const me = await ctx.api('GET', '/api/account', { token });
    expect(me.body.data.status).toBe(AccountStatus.Pending);
  });

  it('answers 401 with the envelope when no token is sent', async () => {
    const me = await ctx.api('GET', '/api/account');
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ successful: false, data: null, error: { message: messages.noAccessToken } });
  });
});
