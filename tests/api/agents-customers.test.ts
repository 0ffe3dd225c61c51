import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType, Exchange, NO_EXCHANGE } from '../../contract/enums';
import { customers } from '../../server/db/schema/index';
import { countryId, createPerson, personWithToken, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let ann: Person & { token: string };
let ben: Person & { token: string };
let staff: string;
let employee: string;
let customerToken: string;
let sg: number;
let my: number;
let c1: Person;
let c2: Person;
let c3: Person;
let b1: Person;

const ids = (res: { body: { data: { data: Array<{ id: number }> } } }) => res.body.data.data.map((row) => row.id);
const own = (body: unknown, token = ann.token) => ctx.api('POST', '/api/agent/customers/own/filter', { token, body });

async function customerOf(agent: Person, options: { first: string; status: AccountStatus; country: string; platformType: number; wallet: string; since: string }) {
  const person = await createPerson(ctx, AccountType.Customer, { agentId: agent.roleId, firstName: options.first, lastName: 'Client', status: options.status, country: options.country });
  // Exchange state and dates come from the exchange sync and the sign-up date; set them as they would be.
  await ctx.deps.db
    .update(customers)
    .set({ platformType: options.platformType, currentWalletAmount: options.wallet, datetimeInserted: new Date(options.since), exchangeAccountUuid: 'uid-1', apiKeyLast4: 'ABCD' })
    .where(eq(customers.id, person.roleId));
  return person;
}

beforeAll(async () => {
  ctx = await createTestContext();
  sg = await countryId(ctx, 'SG');
  my = await countryId(ctx, 'MY');
  staff = (await personWithToken(ctx, AccountType.Admin)).token;
  employee = (await personWithToken(ctx, AccountType.Employee)).token;
  ann = await personWithToken(ctx, AccountType.Agent, { firstName: 'Ann', lastName: 'Agent' });
  ben = await personWithToken(ctx, AccountType.Agent, { firstName: 'Ben', lastName: 'Broker' });
  c1 = await customerOf(ann, { first: 'Zed', status: AccountStatus.Active, country: 'SG', platformType: Exchange.Bybit, wallet: '500.5', since: '2025-03-10T00:00:00Z' });
  c2 = await customerOf(ann, { first: 'Yara', status: AccountStatus.Blocked, country: 'MY', platformType: Exchange.Bitget, wallet: '50', since: '2025-04-02T00:00:00Z' });
  c3 = await customerOf(ann, { first: 'Xavi', status: AccountStatus.Pending, country: 'SG', platformType: NO_EXCHANGE, wallet: '0', since: '2025-04-20T00:00:00Z' });
  const gone = await customerOf(ann, { first: 'Gone', status: AccountStatus.Active, country: 'SG', platformType: Exchange.Bybit, wallet: '9', since: '2025-04-21T00:00:00Z' });
  expect((await ctx.api('DELETE', `/api/customer/${gone.roleId}`, { token: staff })).status).toBe(200);
  b1 = await customerOf(ben, { first: 'Zed', status: AccountStatus.Active, country: 'SG', platformType: Exchange.Bybit, wallet: '900', since: '2025-04-25T00:00:00Z' });
  customerToken = (await personWithToken(ctx, AccountType.Customer)).token;
});
afterAll(async () => ctx?.close());

describe('POST /api/agent/customers/own/filter', () => {
  it("lists only the agent's live customers, every status, newest first, without key or exchange UID", async () => {
    const res = await own({ filter: {}, pageIndex: 0, pageSize: 50 });
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([c3.roleId, c2.roleId, c1.roleId]);
    expect(res.body.data.paging).toEqual({ totalCount: 3, pageIndex: 0, pageSize: 50 });
    expect(res.body.data.data[2]).toMatchObject({
      id: c1.roleId,
      account: { id: c1.accountId, firstName: 'Zed', lastName: 'Client', status: AccountStatus.Active, country: { id: sg } },
      agent: { id: ann.roleId, firstName: 'Ann', lastName: 'Agent' },
      platformType: Exchange.Bybit,
      currentWalletAmount: 500.5,
      apiKey: null,
      apiSecret: null,
      passphrase: null,
      exchangeAccountUUID: null,
      datetimeInserted: '2025-03-10T00:00:00.000Z',
    });
  });

  it('filters by status, country, platform and month', async () => {
    expect(ids(await own({ filter: { statuses: [AccountStatus.Active, AccountStatus.Blocked] } }))).toEqual([c2.roleId, c1.roleId]);
    expect(ids(await own({ filter: { statuses: [AccountStatus.Blocked] } }))).toEqual([c2.roleId]);
    expect(ids(await own({ filter: { countryIds: [my] } }))).toEqual([c2.roleId]);
    expect(ids(await own({ filter: { countryIds: [sg] } }))).toEqual([c3.roleId, c1.roleId]);
    expect(ids(await own({ filter: { platformTypes: [Exchange.Bybit, NO_EXCHANGE] } }))).toEqual([c3.roleId, c1.roleId]);
    expect(ids(await own({ filter: { datetimesInserted: ['2025-04'] } }))).toEqual([c3.roleId, c2.roleId]);
    expect(ids(await own({ filter: { datetimesInserted: ['2025-03'], statuses: [AccountStatus.Blocked] } }))).toEqual([]);
  });

  it('sorts by wallet amount both ways', async () => {
    expect(ids(await own({ sort: { name: 'currentWalletAmount', type: 1 } }))).toEqual([c3.roleId, c2.roleId, c1.roleId]);
    expect(ids(await own({ sort: { name: 'currentWalletAmount', type: 2 } }))).toEqual([c1.roleId, c2.roleId, c3.roleId]);
  });

  it('pages: last page and beyond the end', async () => {
    const last = await own({ pageIndex: 1, pageSize: 2 });
    expect(ids(last)).toEqual([c1.roleId]);
    const beyond = await own({ pageIndex: 4, pageSize: 2 });
    expect(beyond.body.data).toEqual({ data: [], paging: { totalCount: 3, pageIndex: 4, pageSize: 2 } });
  });

  it("answers 404 when the filter names another agent, whatever else it says", async () => {
    const other = await own({ filter: { agentIds: [ben.roleId] } });
    expect(other.status).toBe(404);
    expect(other.body.error?.message).toBe('Agent not found');
    expect((await own({ filter: { agentIds: [ann.roleId, ben.roleId] } })).status).toBe(404);
    expect(ids(await own({ filter: { agentIds: [ann.roleId] } }))).toEqual([c3.roleId, c2.roleId, c1.roleId]);
    // Ben sees his own Zed, never Ann's.
    expect(ids(await own({}, ben.token))).toEqual([b1.roleId]);
  });

  it('refuses bad filters with a message', async () => {
    const bad = await own({ filter: { statuses: [9] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe('body.filter.statuses.0: status must be 1 (Pending), 2 (Blocked), 3 (Active), 4 (Incomplete) or 5 (Rejected)');
    expect((await own({ filter: { datetimesInserted: ['2025-13'] } })).status).toBe(400);
  });

  it('is for agents only', async () => {
    expect((await own({}, staff)).status).toBe(403);
    expect((await own({}, employee)).status).toBe(403);
    expect((await own({}, customerToken)).status).toBe(403);
    expect((await ctx.api('POST', '/api/agent/customers/own/filter', { body: {} })).status).toBe(401);
  });
});

describe('POST /api/agent/customers/own/search/fullname', () => {
  const search = (text: string, token = ann.token, page = {}) => ctx.api('POST', '/api/agent/customers/own/search/fullname', { token, body: { text, ...page } });

  it("finds the agent's own customers by every word of the name, any case", async () => {
    expect(ids(await search('zed'))).toEqual([c1.roleId]);
    expect(ids(await search('CLIENT ya'))).toEqual([c2.roleId]);
    expect(ids(await search('client'))).toEqual([c3.roleId, c2.roleId, c1.roleId]);
    expect(ids(await search('zed', ben.token))).toEqual([b1.roleId]);
    expect(ids(await search('gone'))).toEqual([]);
    const paged = await search('client', ann.token, { pageIndex: 1, pageSize: 2 });
    expect(paged.body.data.paging).toEqual({ totalCount: 3, pageIndex: 1, pageSize: 2 });
    expect(ids(paged)).toEqual([c1.roleId]);
  });

  it('is for agents only', async () => {
    expect((await search('zed', staff)).status).toBe(403);
    expect((await search('zed', employee)).status).toBe(403);
    expect((await search('zed', customerToken)).status).toBe(403);
    expect((await ctx.api('POST', '/api/agent/customers/own/search/fullname', { body: { text: 'a' } })).status).toBe(401);
  });
});

describe('GET /api/agent/customers/own/statistics', () => {
  it("counts the agent's own active and blocked customers", async () => {
    const res = await ctx.api('GET', '/api/agent/customers/own/statistics', { token: ann.token });
    expect(res.body).toEqual({ successful: true, data: { active: 1, blocked: 1 }, error: null });
    expect((await ctx.api('GET', '/api/agent/customers/own/statistics', { token: ben.token })).body.data).toEqual({ active: 1, blocked: 0 });
    for (const token of [staff, employee, customerToken]) {
      expect((await ctx.api('GET', '/api/agent/customers/own/statistics', { token })).status).toBe(403);
    }
    expect((await ctx.api('GET', '/api/agent/customers/own/statistics')).status).toBe(401);
  });
});
