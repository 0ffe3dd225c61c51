import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType, ApplicationSource, Exchange } from '../../contract/enums';
import { customerHealth, customers, pendingRegistrations } from '../../server/db/schema/index';
import { decryptCredentials } from '../../server/lib/credentials';
import { createRegistrationId } from '../../server/modules/registration-ids/service';
import { OAUTH_STARTING_BALANCE, startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import { useExchangeAccess } from '../../server/trading/exchanges/for-deps';
import { guardedFetch } from '../helpers/fetch-guard';
import { countryId, createPerson, PASSWORD, uniqueEmail, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let sandbox: RunningSandbox;
let agent: Person;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false });
  ctx = await createTestContext();
  useExchangeAccess(ctx.deps, { sandboxUrl: sandbox.url, fetchImplementation: guardedFetch });
  agent = await createPerson(ctx, AccountType.Agent);
});
afterAll(async () => {
  await ctx?.close();
  await sandbox?.close();
});

/** Registration ID -> sign-up form: the temporary account id of an Incomplete customer. */
async function signUp(email = uniqueEmail('quick')): Promise<{ tempAccountId: string; email: string; registrationIdId: number }> {
  const rid = await createRegistrationId(ctx.deps, { actorAccountId: agent.accountId, agentId: agent.roleId, byStaff: false });
  const answer = await ctx.api('POST', '/api/security/register', {
    body: { registrationId: rid.code, firstName: 'Quick', lastName: 'Connect', email, age: 33, phone: '+6591234567', countryId: await countryId(ctx, 'SG'), gender: 1, password: PASSWORD },
  });
  expect(answer.status).toBe(200);
  return { tempAccountId: answer.body.data.tempAccountId, email, registrationIdId: rid.id };
}

/** The customer at the exchange: open the authorize page and press Allow; answers our callback URL. */
async function authorizeAtExchange(url: string): Promise<string> {
  const page = await guardedFetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<form');
  const query = new URL(url).searchParams;
  const form = new URLSearchParams({
    client_id: query.get('client_id')!, redirect_uri: query.get('redirect_uri')!, state: query.get('state')!, scope: query.get('scope')!, response_type: 'code', decision: 'allow',
  });
  const allowed = await guardedFetch(url.split('?')[0]!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(), redirect: 'manual' });
  expect(allowed.status).toBe(302);
  return allowed.headers.get('location')!;
}

/** Calls our callback with the path and query the exchange redirected to. */
function callback(location: string) {
  const url = new URL(location);
  return ctx.app.inject({ method: 'GET', url: url.pathname + url.search });
}

async function connectUrl(exchange: string, tempAccountId: string) {
  return ctx.api('GET', `/api/security/${exchange}/oauth/${tempAccountId}`);
}

describe.each([
  ['bybit', Exchange.Bybit, '/en/oauth'],
  ['bitget', Exchange.Bitget, '/bitget/oauth/authorize'],
] as const)('quick connect with %s, end to end over HTTP', (exchange, platformType, authorizePath) => {
  let signup: Awaited<ReturnType<typeof signUp>>;
  let location: string;

  it('answers the authorize URL with a signed state bound to the temporary account', async () => {
    signup = await signUp();
    const answer = await connectUrl(exchange, signup.tempAccountId);
    expect(answer.status).toBe(200);
    const url = new URL(answer.body.data.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${sandbox.url}${authorizePath}`);
    expect(url.searchParams.get('client_id')).toBe(`sandbox-${exchange}-client`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe(`${ctx.config.publicUrl}/api/security/${exchange}/oauth/callback`);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    location = await authorizeAtExchange(answer.body.data.url);
    expect(location.startsWith(`${ctx.config.publicUrl}/api/security/${exchange}/oauth/callback?`)).toBe(true);
  });

  it('the callback stores the key encrypted, creates the Pending customer, and signs in', async () => {
    const done = await callback(location);
    expect(done.statusCode).toBe(302);
    const target = new URL(done.headers.location as string, 'http://x');
    expect(target.pathname).toBe('/auth/exchange/success');
    expect(target.searchParams.get('platformType')).toBe(String(platformType));
    const token = target.searchParams.get('accessToken')!;
    expect(token.length).toBeGreaterThan(20);

    const me = await ctx.api('GET', '/api/account', { token });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email: signup.email, status: AccountStatus.Pending, role: { accountType: AccountType.Customer } });

    const [row] = await ctx.deps.db.select().from(customers).where(eq(customers.accountId, me.body.data.id));
    expect(row).toMatchObject({ agentId: agent.roleId, registrationIdId: signup.registrationIdId, applicationSource: ApplicationSource.External, platformType });
    const oauthAccount = sandbox.control.accounts().find((a) => a.exchange === exchange && a.origin === 'oauth' && a.apiKey === decryptCredentials(ctx.deps.secrets, row!)!.apiKey);
    expect(oauthAccount).toBeDefined();
    expect(row!.apiKeyEnc).not.toContain(oauthAccount!.apiKey);
    expect(row!.apiKeyLast4).toBe(oauthAccount!.apiKey.slice(-4));
    if (exchange === 'bitget') expect(decryptCredentials(ctx.deps.secrets, row!)!.passphrase).toBeTruthy();

    const [pending] = await ctx.deps.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.id, signup.tempAccountId));
    expect(pending!.completedAt).not.toBeNull();
    // The first sync ran: the quick-connect key is bound to our IP and cannot withdraw.
    const [health] = await ctx.deps.db.select().from(customerHealth).where(eq(customerHealth.customerId, row!.id));
    expect(health).toMatchObject({ keyValid: true, canTrade: true, canWithdraw: false, ipBound: true, lastError: null });
    const [synced] = await ctx.deps.db.select({ wallet: customers.currentWalletAmount }).from(customers).where(eq(customers.id, row!.id));
    expect(Number(synced!.wallet)).toBe(OAUTH_STARTING_BALANCE);
  });

  it('a replayed callback shows an error page and creates nothing', async () => {
    const replay = await callback(location);
    expect(replay.statusCode).toBe(409);
    expect(replay.headers['content-type']).toContain('text/html');
    expect(replay.body).toContain('This account is already connected to an exchange. Please sign in.');
    expect(replay.body).not.toMatch(/<script/i);
    expect(String(replay.headers['content-security-policy'])).toContain("script-src 'self'");
    const [pending] = await ctx.deps.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.id, signup.tempAccountId));
    expect(await ctx.deps.db.select().from(customers).where(eq(customers.accountId, pending!.accountId!))).toHaveLength(1);
  });

  it('a second connect of the same sign-up is refused', async () => {
    const again = await connectUrl(exchange, signup.tempAccountId);
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe('This account is already connected to an exchange. Please sign in.');
  });
});

describe('quick connect failures', () => {
  it('Binance and OKX are not available yet; unknown exchanges and sign-ups are refused', async () => {
    const { tempAccountId } = await signUp();
    expect((await connectUrl('binance', tempAccountId)).body.error?.message).toBe('Binance quick connect is not available yet (Coming soon). Please choose Bybit or Bitget.');
    expect((await connectUrl('okx', tempAccountId)).status).toBe(400);
    expect((await connectUrl('kraken', tempAccountId)).body.error?.message).toBe("Unknown exchange 'kraken': use bybit or bitget");
    const unknown = await connectUrl('bybit', '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect((await connectUrl('bybit', 'not-a-uuid')).status).toBe(404);
  });

  it('a forged state, a state for another exchange, or a cancelled authorization shows an error page', async () => {
    const { tempAccountId } = await signUp();
    const url = new URL((await connectUrl('bybit', tempAccountId)).body.data.url);
    const state = url.searchParams.get('state')!;
    const forged = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`;
    const bad = await ctx.app.inject({ method: 'GET', url: `/api/security/bybit/oauth/callback?code=abc&state=${encodeURIComponent(forged)}` });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('This connection link is not valid or has expired');
    const otherExchange = await ctx.app.inject({ method: 'GET', url: `/api/security/bitget/oauth/callback?code=abc&state=${encodeURIComponent(state)}` });
    expect(otherExchange.statusCode).toBe(400);
    const cancelled = await ctx.app.inject({ method: 'GET', url: `/api/security/bybit/oauth/callback?error=access_denied&state=${encodeURIComponent(state)}` });
    expect(cancelled.body).toContain('The connection was cancelled at the exchange');
    const injected = await ctx.app.inject({ method: 'GET', url: '/api/security/bybit/oauth/callback?state=%3Cscript%3Ealert(1)%3C%2Fscript%3E' });
    expect(injected.statusCode).toBe(400);
    expect(injected.body).not.toContain('<script>');
  });

  it('a refused code leaves nothing half-created, and the sign-up can still connect', async () => {
    const signup = await signUp();
    const url = (await connectUrl('bybit', signup.tempAccountId)).body.data.url;
    const state = new URL(url).searchParams.get('state')!;
    const refused = await ctx.app.inject({ method: 'GET', url: `/api/security/bybit/oauth/callback?code=not-a-code&state=${encodeURIComponent(state)}` });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('The exchange did not accept the authorization');
    const [pending] = await ctx.deps.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.id, signup.tempAccountId));
    expect(pending!.completedAt).toBeNull();
    expect(await ctx.deps.db.select().from(customers).where(eq(customers.accountId, pending!.accountId!))).toHaveLength(0);
    const done = await callback(await authorizeAtExchange(url));
    expect(done.statusCode).toBe(302);
  });

  it('a sign-up with an email that already has an account learns it only at the callback, and nothing is connected', async () => {
    const customersBefore = (await ctx.deps.db.select().from(customers)).length;
    const signup = await signUp(agent.email);
    const url = (await connectUrl('bybit', signup.tempAccountId)).body.data.url;
    const answer = await callback(await authorizeAtExchange(url));
    expect([answer.statusCode, answer.headers['content-type']]).toEqual([409, 'text/html; charset=utf-8']);
    expect(answer.body).toContain('An account with this email already exists, so no new account was made and nothing was connected.');
    expect((await ctx.deps.db.select().from(customers)).length).toBe(customersBefore);
    const owner = await ctx.handle.pool.query('select status, account_type from accounts where id = $1', [agent.accountId]);
    expect(owner.rows[0]).toEqual({ status: AccountStatus.Active, account_type: AccountType.Agent });
  });

  it('an expired temporary account cannot get a URL nor finish a started connect', async () => {
    const signup = await signUp();
    const url = (await connectUrl('bybit', signup.tempAccountId)).body.data.url;
    const location = await authorizeAtExchange(url);
    await ctx.deps.db.update(pendingRegistrations).set({ expiresAt: new Date(ctx.clock.now().getTime() - 1000) }).where(eq(pendingRegistrations.id, signup.tempAccountId));
    const answer = await connectUrl('bybit', signup.tempAccountId);
    expect(answer.status).toBe(410);
    expect(answer.body.error?.message).toBe('This sign-up has expired. Ask your agent for a new Registration ID and register again.');
    const late = await callback(location);
    expect(late.statusCode).toBe(410);
    expect(late.body).toContain('This sign-up has expired.');
    const [pending] = await ctx.deps.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.id, signup.tempAccountId));
    expect(await ctx.deps.db.select().from(customers).where(eq(customers.accountId, pending!.accountId!))).toHaveLength(0);
  });
});
