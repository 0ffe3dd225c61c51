import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType, CustomerGroup, Exchange, Gender } from '../../contract/enums';
import { validation } from '../../contract/messages';
import { countries, customers, staffActions } from '../../server/db/schema/index';
import { decryptCredentials } from '../../server/lib/credentials';
import { createPerson, personWithToken, uniqueEmail, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { addCustomer, API_KEY, PASSPHRASE, SECRET, type AddedCustomer } from './customers-fixtures';

type WithToken = Person & { token: string };
let ctx: TestContext;
let admin: WithToken;
let employee: WithToken;
let agent: WithToken;
let customerPerson: WithToken;
let singapore: { id: number; name: string; countryCode: string };

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await personWithToken(ctx, AccountType.Admin);
  employee = await personWithToken(ctx, AccountType.Employee);
  agent = await personWithToken(ctx, AccountType.Agent, { firstName: 'Alice', lastName: 'Agent' });
  customerPerson = await personWithToken(ctx, AccountType.Customer, { agentId: agent.roleId, firstName: 'Own', lastName: 'Customer' });
  const [sg] = await ctx.deps.db.select().from(countries).where(eq(countries.countryCode, 'SG'));
  singapore = sg!;
});
afterAll(async () => ctx?.close());

async function newAccount(token: string, accountType: number = AccountType.Customer): Promise<number> {
  const result = await ctx.api('POST', '/api/account', {
    token,
    body: { firstName: 'new', lastName: 'person', email: uniqueEmail('acct'), age: 33, phone: '+6591112222', countryId: singapore.id, gender: Gender.Male, password: 'a long password', accountType },
  });
  expect(result.status).toBe(200);
  return result.body.data.id;
}

function createBody(accountId: number, extra: Record<string, unknown> = {}) {
  return {
    accountId,
    platformType: Exchange.Bybit,
    apiKey: API_KEY,
    apiSecret: SECRET,
    passphrase: PASSPHRASE,
    applicationSource: 1,
    exchangeAccountUUID: 'uid-77',
    agentId: agent.roleId,
    ...extra,
  };
}

describe('POST /api/customer (staff add-customer flow)', () => {
  it('creates the customer with encrypted credentials and answers it with the key masked and no secret', async () => {
    const accountId = await newAccount(employee.token);
    const result = await ctx.api('POST', '/api/customer', { token: employee.token, body: createBody(accountId, { group: CustomerGroup.Vip }) });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      successful: true,
      error: null,
      data: {
        id: expect.any(Number),
        account: {
          id: accountId,
          firstName: 'New',
          lastName: 'Person',
          email: expect.stringMatching(/^acct\./),
          age: 33,
          phone: '+6591112222',
          gender: Gender.Male,
          country: { id: singapore.id, name: singapore.name, countryCode: 'SG', imageUrl: '/flags/sg.svg' },
          status: AccountStatus.Pending,
          datetimeInserted: expect.any(String),
          role: { accountType: AccountType.Customer },
        },
        agent: { id: agent.roleId, firstName: 'Alice', lastName: 'Agent' },
        registrationId: null,
        group: CustomerGroup.Vip,
        applicationSource: 1,
        platformType: Exchange.Bybit,
        exchangeAccountUUID: 'uid-77',
        apiKey: '****9Z7Q',
        apiSecret: null,
        passphrase: null,
        hasApiSecret: true,
        hasPassphrase: true,
        currentWalletAmount: 0,
        totalTransactions: 0,
        referralCode: null,
        profitSharePct: 20,
        datetimeInserted: ctx.clock.now().toISOString(),
      },
    });
    const [row] = await ctx.deps.db.select().from(customers).where(eq(customers.accountId, accountId));
    expect(decryptCredentials(ctx.deps.secrets, row!)).toEqual({ apiKey: API_KEY, secret: SECRET, passphrase: PASSPHRASE });
    const [log] = await ctx.deps.db.select().from(staffActions).where(sql`${staffActions.targetType} = 'customer' and ${staffActions.targetId} = ${String(row!.id)}`);
    expect(log).toMatchObject({ actorAccountId: employee.accountId, action: 'create' });
    expect(JSON.stringify(log!.details)).not.toContain(SECRET);
  });

  it('puts an exclusive customer in group Exclusive, takes an agreed profit share, and allows no group yet', async () => {
    const exclusive = await ctx.api('POST', '/api/customer', { token: admin.token, body: createBody(await newAccount(admin.token), { isExclusive: true, profitSharePct: 35.5 }) });
    expect(exclusive.status).toBe(200);
    expect(exclusive.body.data).toMatchObject({ group: CustomerGroup.Exclusive, profitSharePct: 35.5 });
    const noGroup = await ctx.api('POST', '/api/customer', { token: admin.token, body: createBody(await newAccount(admin.token), { passphrase: null }) });
    expect(noGroup.status).toBe(200);
    expect(noGroup.body.data).toMatchObject({ group: null, hasPassphrase: false, passphrase: null });
  });

  it('refuses bad input with a message naming the field', async () => {
    const accountId = await newAccount(admin.token);
    const deletedAgent = await createPerson(ctx, AccountType.Agent);
    expect((await ctx.api('PATCH', `/api/security/status/${deletedAgent.accountId}`, { token: admin.token, body: { status: 0 } })).status).toBe(200);
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ ...createBody(accountId), apiSecret: undefined }, 400, /body\.apiSecret: apiSecret is required/],
      [{ ...createBody(accountId), apiKey: '   ' }, 400, /body\.apiKey: apiKey is required/],
      [{ ...createBody(accountId), exchangeAccountUUID: undefined }, 400, /exchangeAccountUUID is required/],
      [{ ...createBody(accountId), platformType: Exchange.Binance }, 400, /Please select exchange: platformType must be 1 \(Bitget\) or 2 \(Bybit\)/],
      [{ ...createBody(accountId), agentId: undefined }, 400, /body\.agentId: Please select agent/],
      [{ ...createBody(accountId), group: 9 }, 400, /body\.group: group must be Gold 1/],
      [{ ...createBody(accountId), isExclusive: true, group: CustomerGroup.Gold }, 400, /send isExclusive without another group/],
      [{ ...createBody(accountId), applicationSource: 2 }, 400, /applicationSource must be 1 \(Internal\)/],
      [{ ...createBody(accountId), profitSharePct: 101 }, 400, /profitSharePct must be between 0 and 100/],
      [{ ...createBody(accountId), accountId: 'abc' }, 400, /body\.accountId: must be a number/],
      [createBody(999999), 404, /^Account not found$/],
      [createBody(accountId, { agentId: 999999 }), 400, /^agentId: no agent with id 999999\. Please select agent$/],
      [createBody(accountId, { agentId: deletedAgent.roleId }), 400, new RegExp(`^agentId: no agent with id ${deletedAgent.roleId}\\.`)],
      [createBody(agent.accountId), 400, /accountId: this account is not a customer account/],
    ];
    for (const [body, status, message] of cases) {
      const result = await ctx.api('POST', '/api/customer', { token: admin.token, body });
      expect({ status: result.status, message: result.body.error?.message }, JSON.stringify(body)).toEqual({ status, message: expect.stringMatching(message) });
      expect(result.body.successful).toBe(false);
    }
    const first = await ctx.api('POST', '/api/customer', { token: admin.token, body: createBody(accountId) });
    expect(first.status).toBe(200);
    const again = await ctx.api('POST', '/api/customer', { token: admin.token, body: createBody(accountId) });
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe('This account already has a customer record');
  });

  it('is open to admins and employees only', async () => {
    for (const [token, status] of [[undefined, 401], [customerPerson.token, 403], [agent.token, 403]] as const) {
      const result = await ctx.api('POST', '/api/customer', { token, body: createBody(1) });
      expect(result.status).toBe(status);
    }
  });
});

describe('reading customers', () => {
  let added: AddedCustomer;
  beforeAll(async () => {
    added = await addCustomer(ctx, admin.token, { agentId: agent.roleId, firstName: 'Read', lastName: 'Me' });
  });

  it('GET /api/customer/:id answers staff, and 404 for unknown or deleted customers', async () => {
    for (const token of [admin.token, employee.token]) {
      const result = await ctx.api('GET', `/api/customer/${added.customerId}`, { token });
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({ id: added.customerId, account: { id: added.accountId, firstName: 'Read', lastName: 'Me' }, apiKey: '****9Z7Q', apiSecret: null, passphrase: null });
    }
    const unknown = await ctx.api('GET', '/api/customer/999999', { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ successful: false, data: null, error: { message: 'Customer not found' } });
    const bad = await ctx.api('GET', '/api/customer/abc', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe('path.id: must be a number');
  });

  it('a customer reads their own record and gets 404 for anyone else; agents and anonymous are refused', async () => {
    const own = await ctx.api('GET', '/api/customer', { token: customerPerson.token });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ id: customerPerson.roleId, account: { id: customerPerson.accountId, firstName: 'Own' }, agent: { id: agent.roleId } });
    const ownById = await ctx.api('GET', `/api/customer/${customerPerson.roleId}`, { token: customerPerson.token });
    expect(ownById.body.data.id).toBe(customerPerson.roleId);
    const other = await ctx.api('GET', `/api/customer/${added.customerId}`, { token: customerPerson.token });
    expect(other.status).toBe(404);
    expect(other.body.error?.message).toBe('Customer not found');
    expect((await ctx.api('GET', `/api/customer/${added.customerId}`, { token: agent.token })).status).toBe(403);
    expect((await ctx.api('GET', `/api/customer/${added.customerId}`)).status).toBe(401);
    for (const token of [admin.token, employee.token, agent.token]) {
      expect((await ctx.api('GET', '/api/customer', { token })).status).toBe(403);
    }
  });
});

describe('changes (admin only, each written to the staff log)', () => {
  it('PUT /api/customer/:id/short replaces the credentials, re-encrypted', async () => {
    const added = await addCustomer(ctx, admin.token, { agentId: agent.roleId });
    const body = { apiKey: 'new-key-WXYZ', apiSecret: 'new-secret-value', passphrase: null, platformType: Exchange.Bybit };
    const refused = await ctx.api('PUT', `/api/customer/${added.customerId}/short`, { token: employee.token, body });
    expect(refused.status).toBe(403);
    const result = await ctx.api('PUT', `/api/customer/${added.customerId}/short`, { token: admin.token, body });
    expect(result.body).toEqual({ successful: true, data: { success: true }, error: null });
    const read = await ctx.api('GET', `/api/customer/${added.customerId}`, { token: admin.token });
    expect(read.body.data).toMatchObject({ apiKey: '****WXYZ', platformType: Exchange.Bybit, hasPassphrase: false, hasApiSecret: true });
    const [row] = await ctx.deps.db.select().from(customers).where(eq(customers.id, added.customerId));
    expect(decryptCredentials(ctx.deps.secrets, row!)).toEqual({ apiKey: 'new-key-WXYZ', secret: 'new-secret-value', passphrase: undefined });
    const missing = await ctx.api('PUT', `/api/customer/${added.customerId}/short`, { token: admin.token, body: { apiKey: 'k' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toMatch(/body\.apiSecret: apiSecret is required/);
    const unknown = await ctx.api('PUT', '/api/customer/999999/short', { token: admin.token, body });
    expect(unknown.status).toBe(404);
    const logs = await ctx.deps.db.select().from(staffActions).where(sql`${staffActions.action} = 'credentials_change' and ${staffActions.targetId} = ${String(added.customerId)}`);
    expect(logs).toHaveLength(1);
    expect(JSON.stringify(logs[0]!.details)).not.toContain('new-secret-value');
  });

  it('PATCH /api/customer/:id/group sets the group', async () => {
    const added = await addCustomer(ctx, admin.token, { agentId: agent.roleId, group: null });
    expect((await ctx.api('PATCH', `/api/customer/${added.customerId}/group`, { token: employee.token, body: { group: 2 } })).status).toBe(403);
    const result = await ctx.api('PATCH', `/api/customer/${added.customerId}/group`, { token: admin.token, body: { group: CustomerGroup.Internal } });
    expect(result.body).toEqual({ successful: true, data: { success: true }, error: null });
    expect((await ctx.api('GET', `/api/customer/${added.customerId}`, { token: admin.token })).body.data.group).toBe(CustomerGroup.Internal);
    const bad = await ctx.api('PATCH', `/api/customer/${added.customerId}/group`, { token: admin.token, body: { group: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe('body.group: group must be Gold 1, Internal 2, Vip 3, Occasion 4 or Exclusive 5');
    expect((await ctx.api('PATCH', '/api/customer/999999/group', { token: admin.token, body: { group: 1 } })).status).toBe(404);
    const [log] = await ctx.deps.db.select().from(staffActions).where(sql`${staffActions.action} = 'group_change' and ${staffActions.targetId} = ${String(added.customerId)}`);
    expect(log).toMatchObject({ actorAccountId: admin.accountId, details: { from: null, to: CustomerGroup.Internal } });
  });

  it('POST /api/customer/group/bulk moves every live customer of one group and logs who moved', async () => {
    const a = await addCustomer(ctx, admin.token, { agentId: agent.roleId, group: CustomerGroup.Occasion });
    const b = await addCustomer(ctx, admin.token, { agentId: agent.roleId, group: CustomerGroup.Occasion });
    const gone = await addCustomer(ctx, admin.token, { agentId: agent.roleId, group: CustomerGroup.Occasion });
    await ctx.api('DELETE', `/api/customer/${gone.customerId}`, { token: admin.token });
    expect((await ctx.api('POST', '/api/customer/group/bulk', { token: employee.token, body: { originalGroup: 4, finalGroup: 3 } })).status).toBe(403);
    const same = await ctx.api('POST', '/api/customer/group/bulk', { token: admin.token, body: { originalGroup: 4, finalGroup: 4 } });
    expect(same.status).toBe(400);
    expect(same.body.error?.message).toBe('body.finalGroup: finalGroup must differ from originalGroup');
    const result = await ctx.api('POST', '/api/customer/group/bulk', { token: admin.token, body: { originalGroup: CustomerGroup.Occasion, finalGroup: CustomerGroup.Vip } });
    expect(result.body).toEqual({ successful: true, data: { success: true, updatedCount: 2 }, error: null });
    for (const c of [a, b]) expect((await ctx.api('GET', `/api/customer/${c.customerId}`, { token: admin.token })).body.data.group).toBe(CustomerGroup.Vip);
    const [deletedRow] = await ctx.deps.db.select({ group: customers.group }).from(customers).where(eq(customers.id, gone.customerId));
    expect(deletedRow!.group).toBe(CustomerGroup.Occasion);
    const [log] = await ctx.deps.db.select().from(staffActions).where(eq(staffActions.action, 'group_bulk_change'));
    expect(log!.details).toEqual({ originalGroup: 4, finalGroup: 3, updatedCount: 2, customerIds: [a.customerId, b.customerId] });
  });

  it('DELETE /api/customer/:id soft-deletes the account: gone from reads, sessions ended', async () => {
    const victim = await personWithToken(ctx, AccountType.Customer, { agentId: agent.roleId });
    expect((await ctx.api('DELETE', `/api/customer/${victim.roleId}`, { token: employee.token })).status).toBe(403);
    const result = await ctx.api('DELETE', `/api/customer/${victim.roleId}`, { token: admin.token });
    expect(result.body).toEqual({ successful: true, data: { success: true }, error: null });
    expect((await ctx.api('GET', `/api/customer/${victim.roleId}`, { token: admin.token })).status).toBe(404);
    expect((await ctx.api('GET', '/api/customer', { token: victim.token })).status).toBe(401);
    expect((await ctx.api('DELETE', `/api/customer/${victim.roleId}`, { token: admin.token })).status).toBe(404);
    const [log] = await ctx.deps.db.select().from(staffActions).where(sql`${staffActions.action} = 'delete' and ${staffActions.targetId} = ${String(victim.accountId)}`);
    expect(log).toMatchObject({ actorAccountId: admin.accountId, targetType: 'account' });
  });
});

describe('secrets at rest and on the wire', () => {
  it('no text column of customers holds a plaintext credential, and no answer carries one', async () => {
    const added = await addCustomer(ctx, admin.token, { agentId: agent.roleId, apiKey: 'PLAINKEY-visible-only-last4-K9Q2' });
    const columns = await ctx.deps.db.execute<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name = 'customers' and data_type in ('text', 'character varying')`,
    );
    expect(columns.rows.length).toBeGreaterThanOrEqual(5);
    const dump = await ctx.deps.db.execute(sql.raw(`select ${columns.rows.map((c) => `coalesce("${c.column_name}", '')`).join(` || '|' || `)} as line from customers`));
    const text = dump.rows.map((r) => String(r.line)).join('\n');
    for (const secret of [SECRET, PASSPHRASE, 'PLAINKEY-visible-only']) expect(text).not.toContain(secret);
    const answers = [
      await ctx.api('GET', `/api/customer/${added.customerId}`, { token: admin.token }),
      await ctx.api('POST', '/api/customer/filter', { token: admin.token, body: { filter: { statuses: [1, 2, 3, 4, 5] }, pageSize: 100 } }),
      await ctx.api('POST', '/api/customer/search/fullname', { token: admin.token, body: { text: 'casey' } }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const raw = JSON.stringify(answer.body);
      for (const secret of [SECRET, PASSPHRASE, 'PLAINKEY-visible-only']) expect(raw).not.toContain(secret);
    }
    expect(answers[0]!.body.data.apiKey).toBe('****K9Q2');
  });
});

describe('approval through PATCH /api/security/status/:accountId', () => {
  it('refuses approval without a group, then approves (status 3, profit share fixed, mail) or rejects (status 5)', async () => {
    const pending = await addCustomer(ctx, employee.token, { agentId: agent.roleId, group: null });
    await ctx.deps.db.update(customers).set({ profitSharePct: null }).where(eq(customers.id, pending.customerId));
    const list = await ctx.api('POST', '/api/customer/filter', { token: employee.token, body: { filter: { statuses: [1, 5] } } });
    expect(list.body.data.data.map((c: { id: number }) => c.id)).toContain(pending.customerId);

    const byEmployee = await ctx.api('PATCH', `/api/security/status/${pending.accountId}`, { token: employee.token, body: { status: 3 } });
    expect(byEmployee.status).toBe(403);
    const noGroup = await ctx.api('PATCH', `/api/security/status/${pending.accountId}`, { token: admin.token, body: { status: 3 } });
    expect(noGroup.status).toBe(400);
    expect(noGroup.body.error?.message).toBe(validation.selectGroupOrExclusive);

    expect((await ctx.api('PATCH', `/api/customer/${pending.customerId}/group`, { token: admin.token, body: { group: CustomerGroup.Gold } })).status).toBe(200);
    const approved = await ctx.api('PATCH', `/api/security/status/${pending.accountId}`, { token: admin.token, body: { status: 3 } });
    expect(approved.body).toEqual({ successful: true, data: { id: pending.accountId, status: 3 }, error: null });
    const read = await ctx.api('GET', `/api/customer/${pending.customerId}`, { token: admin.token });
    expect(read.body.data).toMatchObject({ account: { status: AccountStatus.Active }, group: CustomerGroup.Gold, profitSharePct: 20 });
    expect(ctx.mails(pending.email).map((m) => m.subject)).toContain('Your account has been approved');
    const activeList = await ctx.api('POST', '/api/customer/filter', { token: employee.token, body: {} });
    expect(activeList.body.data.data.map((c: { id: number }) => c.id)).toContain(pending.customerId);

    const other = await addCustomer(ctx, employee.token, { agentId: agent.roleId });
    const rejected = await ctx.api('PATCH', `/api/security/status/${other.accountId}`, { token: admin.token, body: { status: 5 } });
    expect(rejected.body.data).toEqual({ id: other.accountId, status: 5 });
    const rejectedList = await ctx.api('POST', '/api/customer/filter', { token: employee.token, body: { filter: { statuses: [5] } } });
    expect(rejectedList.body.data.data.map((c: { id: number }) => c.id)).toContain(other.customerId);
    const login = await ctx.api('POST', '/api/security/login', { body: { email: other.email, password: other.password } });
    expect(login.status).toBe(403);
  });
});

describe('who may call each customer endpoint', () => {
  const staff = ['employee', 'admin'];
  const routes: Array<[string, string, unknown, string[]]> = [
    ['POST', '/api/customer', {}, staff],
    ['GET', '/api/customer', undefined, ['customer']],
    ['GET', '/api/customer/999999', undefined, [...staff, 'customer']],
    ['PUT', '/api/customer/999999/short', {}, ['admin']],
    ['DELETE', '/api/customer/999999', undefined, ['admin']],
    ['PATCH', '/api/customer/999999/group', {}, ['admin']],
    ['POST', '/api/customer/group/bulk', { originalGroup: 4, finalGroup: 4 }, ['admin']],
    ['POST', '/api/customer/filter', {}, staff],
    ['GET', '/api/customer/statistics', undefined, staff],
    ['POST', '/api/customer/search/fullname', { text: 'x' }, staff],
    ['POST', '/api/customer/search/exclusive', {}, staff],
    ['POST', '/api/customer/export', undefined, ['admin']],
  ];

  it.each(routes)('%s %s', async (method, url, body, allowed) => {
    const callers: Record<string, string | undefined> = { anonymous: undefined, customer: customerPerson.token, agent: agent.token, employee: employee.token, admin: admin.token };
    const seen: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const [caller, token] of Object.entries(callers)) {
      const result = await ctx.api(method, url, { token, ...(body === undefined ? {} : { body }) });
      seen[caller] = result.status === 401 ? 'unauthenticated' : result.status === 403 ? 'forbidden' : 'reached';
      expected[caller] = caller === 'anonymous' ? 'unauthenticated' : allowed.includes(caller) ? 'reached' : 'forbidden';
    }
    expect(seen).toEqual(expected);
  });
});
