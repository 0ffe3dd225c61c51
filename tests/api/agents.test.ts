import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType } from '../../contract/enums';
import { server as messages } from '../../contract/messages';
import { countryId, createPerson, personWithToken, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let admin: string;
let employee: string;
let customerToken: string;
let alice: Person & { token: string };
let bob: Person & { token: string };
let carol: Person;
let sg: number;
let my: number;

/** Agent ids in the order the tests expect them. */
const ids = (body: { data: { data: Array<{ id: number }> } }) => body.data.data.map((row) => row.id);

beforeAll(async () => {
  ctx = await createTestContext();
  sg = await countryId(ctx, 'SG');
  my = await countryId(ctx, 'MY');
  admin = (await personWithToken(ctx, AccountType.Admin)).token;
  employee = (await personWithToken(ctx, AccountType.Employee)).token;
  alice = await personWithToken(ctx, AccountType.Agent, { firstName: 'Alice', lastName: 'Zephyr', country: 'SG' });
  bob = await personWithToken(ctx, AccountType.Agent, { firstName: 'bob', lastName: 'Young', country: 'MY' });
  carol = await createPerson(ctx, AccountType.Agent, { firstName: 'Carol', lastName: 'Alvarez', country: 'MY', status: AccountStatus.Blocked });
  // alice 2 customers, bob 0, carol 3 (one more deleted below, which must not count).
  for (let i = 0; i < 2; i++) await createPerson(ctx, AccountType.Customer, { agentId: alice.roleId });
  for (let i = 0; i < 3; i++) await createPerson(ctx, AccountType.Customer, { agentId: carol.roleId, status: AccountStatus.Pending });
  const gone = await createPerson(ctx, AccountType.Customer, { agentId: carol.roleId });
  const deleted = await ctx.api('PATCH', `/api/security/status/${gone.accountId}`, { token: admin, body: { status: 0 } });
  expect(deleted.status).toBe(200);
  customerToken = (await personWithToken(ctx, AccountType.Customer, { agentId: alice.roleId })).token;
  // That last customer is alice's third.
});
afterAll(async () => ctx?.close());

describe('GET /api/agent/all', () => {
  it('answers every agent newest first with its account and live customer count', async () => {
    const res = await ctx.api('GET', '/api/agent/all?pageIndex=0&pageSize=100', { token: employee });
    expect(res.status).toBe(200);
    expect(res.body.successful).toBe(true);
    expect(res.body.data.paging).toEqual({ totalCount: 3, pageIndex: 0, pageSize: 100 });
    expect(ids(res.body)).toEqual([carol.roleId, bob.roleId, alice.roleId]);
    const first = res.body.data.data[2];
    expect(first).toEqual({
      id: alice.roleId,
      totalCustomers: 3,
      account: {
        id: alice.accountId,
        firstName: 'Alice',
        lastName: 'Zephyr',
        email: alice.email,
        age: 30,
        phone: '+6591234567',
        gender: 1,
        country: { id: sg, name: 'Singapore', countryCode: 'SG', imageUrl: '/flags/sg.svg' },
        status: AccountStatus.Active,
        datetimeInserted: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        role: { accountType: AccountType.Agent },
      },
    });
    expect(res.body.data.data.map((a: { totalCustomers: number }) => a.totalCustomers)).toEqual([3, 0, 3]);
  });

  it('pages: default size 50, last page, empty page beyond the end, and refuses pageSize over 100', async () => {
    const byDefault = await ctx.api('GET', '/api/agent/all', { token: admin });
    expect(byDefault.body.data.paging).toEqual({ totalCount: 3, pageIndex: 0, pageSize: 50 });
    const last = await ctx.api('GET', '/api/agent/all?pageIndex=1&pageSize=2', { token: admin });
    expect(ids(last.body)).toEqual([alice.roleId]);
    expect(last.body.data.paging.totalCount).toBe(3);
    const beyond = await ctx.api('GET', '/api/agent/all?pageIndex=7&pageSize=2', { token: admin });
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual({ data: [], paging: { totalCount: 3, pageIndex: 7, pageSize: 2 } });
    const tooBig = await ctx.api('GET', '/api/agent/all?pageIndex=0&pageSize=101', { token: admin });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error?.message).toBe('query.pageSize: pageSize must be at most 100');
    const negative = await ctx.api('GET', '/api/agent/all?pageIndex=-1', { token: admin });
    expect(negative.status).toBe(400);
    expect(negative.body.error?.message).toBe('query.pageIndex: pageIndex starts at 0');
  });

  it.each([
    ['anonymous', undefined, 401],
    ['a customer', 'customer', 403],
    ['an agent', 'agent', 403],
  ])('refuses %s', async (_label, who, status) => {
    const token = who === 'customer' ? customerToken : who === 'agent' ? alice.token : undefined;
    const res = await ctx.api('GET', '/api/agent/all', { token });
    expect(res.status).toBe(status);
    expect(res.body.successful).toBe(false);
    expect(res.body.error?.message).toBe(status === 401 ? messages.noAccessToken : messages.permissionDenied);
  });
});

describe('POST /api/agent/filter', () => {
  const filter = (body: unknown, token = employee) => ctx.api('POST', '/api/agent/filter', { token, body });

  it('matches any part of the first or last name, any case', async () => {
    expect(ids((await filter({ filter: { name: 'ALI' }, pageIndex: 0, pageSize: 50 })).body)).toEqual([alice.roleId]);
    expect(ids((await filter({ filter: { name: 'young' } })).body)).toEqual([bob.roleId]);
    expect(ids((await filter({ filter: { name: 'al' } })).body)).toEqual([carol.roleId, alice.roleId]);
    expect(ids((await filter({ filter: { name: 'carol alv' } })).body)).toEqual([carol.roleId]);
    const none = await filter({ filter: { name: 'nobody' } });
    expect(none.body.data).toEqual({ data: [], paging: { totalCount: 0, pageIndex: 0, pageSize: 50 } });
    // LIKE wildcards are matched literally.
    expect((await filter({ filter: { name: '%' } })).body.data.paging.totalCount).toBe(0);
  });

  it('filters by countries, with and without a name', async () => {
    expect(ids((await filter({ filter: { countryIds: [my] } })).body)).toEqual([carol.roleId, bob.roleId]);
    expect(ids((await filter({ filter: { countryIds: [sg, my] } })).body)).toEqual([carol.roleId, bob.roleId, alice.roleId]);
    expect(ids((await filter({ filter: { countryIds: [my], name: 'bob' } })).body)).toEqual([bob.roleId]);
    expect(ids((await filter({ filter: { countryIds: [] } })).body)).toHaveLength(3);
  });

  it('sorts by first name and by total customers, both ways', async () => {
    const sortBy = async (name: string, type: number) => ids((await filter({ filter: {}, sort: { name, type } })).body);
    expect(await sortBy('account.firstName', 1)).toEqual([alice.roleId, bob.roleId, carol.roleId]);
    expect(await sortBy('account.firstName', 2)).toEqual([carol.roleId, bob.roleId, alice.roleId]);
    // Ties (alice and carol both have 3) keep the agent id order.
    expect(await sortBy('totalCustomers', 1)).toEqual([bob.roleId, alice.roleId, carol.roleId]);
    expect(await sortBy('totalCustomers', 2)).toEqual([alice.roleId, carol.roleId, bob.roleId]);
  });

  it('pages a sorted, filtered list', async () => {
    const page = await filter({ filter: { name: 'a' }, sort: { name: 'account.firstName', type: 1 }, pageIndex: 1, pageSize: 1 });
    expect(page.body.data.paging).toEqual({ totalCount: 2, pageIndex: 1, pageSize: 1 });
    expect(ids(page.body)).toEqual([carol.roleId]);
  });

  it('refuses a bad sort or filter with a message', async () => {
    const badSort = await filter({ sort: { name: 'email', type: 1 } });
    expect(badSort.status).toBe(400);
    expect(badSort.body.error?.message).toBe("body.sort.name: sort.name must be 'account.firstName' or 'totalCustomers'");
    const badType = await filter({ sort: { name: 'totalCustomers', type: 3 } });
    expect(badType.status).toBe(400);
    expect(badType.body.error?.message).toBe('body.sort.type: sort type must be 1 (ascending) or 2 (descending)');
    const badCountry = await filter({ filter: { countryIds: ['x'] } });
    expect(badCountry.status).toBe(400);
  });

  it('is for staff only', async () => {
    expect((await filter({}, alice.token)).status).toBe(403);
    expect((await filter({}, customerToken)).status).toBe(403);
    expect((await ctx.api('POST', '/api/agent/filter', { body: {} })).status).toBe(401);
    expect((await filter({}, admin)).status).toBe(200);
  });
});

describe('GET /api/agent/statistics', () => {
  it('counts active and blocked agents', async () => {
    const res = await ctx.api('GET', '/api/agent/statistics', { token: employee });
    expect(res.body).toEqual({ successful: true, data: { active: 2, blocked: 1 }, error: null });
  });
});

describe('who may read agents', () => {
  it.each(['/api/agent/statistics', '/api/agent/all', 'byId'])('%s: staff yes, agents (other than themselves), customers and anonymous callers no', async (path) => {
    const url = path === 'byId' ? `/api/agent/${bob.roleId}` : path;
    expect((await ctx.api('GET', url, { token: admin })).status).toBe(200);
    expect((await ctx.api('GET', url, { token: employee })).status).toBe(200);
    expect((await ctx.api('GET', url, { token: alice.token })).status).toBe(path === 'byId' ? 404 : 403);
    expect((await ctx.api('GET', url, { token: customerToken })).status).toBe(403);
    expect((await ctx.api('GET', url)).status).toBe(401);
  });
});

describe('GET /api/agent and /api/agent/:agentId', () => {
  it('gives an agent their own record', async () => {
    const res = await ctx.api('GET', '/api/agent', { token: bob.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: bob.roleId, totalCustomers: 0, account: { id: bob.accountId, firstName: 'Bob', lastName: 'Young' } });
  });

  it('is for agents only', async () => {
    expect((await ctx.api('GET', '/api/agent', { token: admin })).status).toBe(403);
    expect((await ctx.api('GET', '/api/agent', { token: customerToken })).status).toBe(403);
    expect((await ctx.api('GET', '/api/agent')).status).toBe(401);
  });

  it('gives staff any agent and an agent only themselves (404 for others)', async () => {
    const staff = await ctx.api('GET', `/api/agent/${carol.roleId}`, { token: employee });
    expect(staff.body.data).toMatchObject({ id: carol.roleId, totalCustomers: 3, account: { status: AccountStatus.Blocked } });
    const own = await ctx.api('GET', `/api/agent/${alice.roleId}`, { token: alice.token });
    expect(own.body.data.id).toBe(alice.roleId);
    const other = await ctx.api('GET', `/api/agent/${bob.roleId}`, { token: alice.token });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ successful: false, data: null, error: { message: 'Agent not found' } });
    expect((await ctx.api('GET', `/api/agent/${carol.roleId}`, { token: customerToken })).status).toBe(403);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await ctx.api('GET', '/api/agent/999999', { token: admin })).status).toBe(404);
    const bad = await ctx.api('GET', '/api/agent/abc', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe('path.agentId: must be a number');
  });
});
