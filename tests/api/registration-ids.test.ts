import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType, RegistrationIdStatus } from '../../contract/enums';
import { server as messages } from '../../contract/messages';
import { staffActions } from '../../server/db/schema/index';
import { countryId, createPerson, personWithToken, uniqueEmail, PASSWORD, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let admin: Person & { token: string };
let employee: string;
let customerToken: string;
let ann: Person & { token: string };
let ben: Person & { token: string };
let blocked: Person;
let country: number;

const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{12}$/;
type Item = { id: number; code: string; status: number; agent: { id: number } };

const search = (token: string | undefined, body: unknown) => ctx.api('POST', '/api/registrationid/search', { token, body });
const codes = (res: { body: { data: { data: Item[] } } }) => res.body.data.data.map((row) => row.code);

async function registerWith(code: string, email = uniqueEmail('signup')) {
  return ctx.api('POST', '/api/security/register', {
    body: { registrationId: code, firstName: 'new', lastName: 'customer', email, age: 28, phone: '+6591112222', countryId: country, gender: 1, password: PASSWORD },
  });
}

const annCodes: string[] = [];
const benCodes: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  country = await countryId(ctx, 'SG');
  admin = await personWithToken(ctx, AccountType.Admin);
  employee = (await personWithToken(ctx, AccountType.Employee)).token;
  customerToken = (await personWithToken(ctx, AccountType.Customer)).token;
  ann = await personWithToken(ctx, AccountType.Agent, { firstName: 'Ann', lastName: 'Agent' });
  ben = await personWithToken(ctx, AccountType.Agent, { firstName: 'Ben', lastName: 'Broker' });
  blocked = await createPerson(ctx, AccountType.Agent, { status: AccountStatus.Blocked });
});
afterAll(async () => ctx?.close());

describe('POST /api/registrationid (agent, own)', () => {
  it('creates a pending 12-character code dated by the clock, for the calling agent', async () => {
    const res = await ctx.api('POST', '/api/registrationid', { token: ann.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      successful: true,
      data: {
        id: expect.any(Number),
        code: expect.stringMatching(CODE),
        status: RegistrationIdStatus.Pending,
        datetimeInserted: ctx.clock.now().toISOString(),
        datetimeRegistered: null,
        agent: { id: ann.roleId, firstName: 'Ann', lastName: 'Agent' },
      },
      error: null,
    });
    annCodes.unshift(res.body.data.code);
  });

  it('never repeats a code', async () => {
    for (let i = 0; i < 4; i++) annCodes.unshift((await ctx.api('POST', '/api/registrationid', { token: ann.token })).body.data.code);
    for (let i = 0; i < 3; i++) benCodes.unshift((await ctx.api('POST', '/api/registrationid', { token: ben.token })).body.data.code);
    expect(new Set([...annCodes, ...benCodes]).size).toBe(8);
  });

  it('is for agents only', async () => {
    expect((await ctx.api('POST', '/api/registrationid', { token: admin.token })).status).toBe(403);
    expect((await ctx.api('POST', '/api/registrationid', { token: employee })).status).toBe(403);
    expect((await ctx.api('POST', '/api/registrationid', { token: customerToken })).status).toBe(403);
    expect((await ctx.api('POST', '/api/registrationid')).status).toBe(401);
  });
});

describe('POST /api/registrationid/as/:agentId (admin for an agent)', () => {
  it("creates a code in the chosen agent's name and logs it as a staff action", async () => {
    const res = await ctx.api('POST', `/api/registrationid/as/${ben.roleId}`, { token: admin.token, body: { agentId: ben.roleId } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ code: expect.stringMatching(CODE), status: RegistrationIdStatus.Pending, agent: { id: ben.roleId, firstName: 'Ben', lastName: 'Broker' } });
    benCodes.unshift(res.body.data.code);
    const log = await ctx.deps.db
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.targetType, 'registrationId'), eq(staffActions.targetId, String(res.body.data.id))));
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ actorAccountId: admin.accountId, action: 'create', details: { agentId: ben.roleId } });
    // The agent sees it among their own.
    expect(codes(await search(ben.token, {}))[0]).toBe(res.body.data.code);
  });

  it("answers 'Agent ID is required' when the agent id is missing or not an id", async () => {
    for (const bad of ['abc', '0', '-3', '1.5']) {
      const res = await ctx.api('POST', `/api/registrationid/as/${bad}`, { token: admin.token });
      expect(res.status).toBe(400);
      expect(res.body.error?.message).toBe('path.agentId: Agent ID is required');
    }
    const empty = await ctx.api('POST', '/api/registrationid/as/', { token: admin.token });
    expect(empty.status).toBe(400);
    expect(empty.body.error?.message).toBe('path.agentId: Agent ID is required');
    const mismatch = await ctx.api('POST', `/api/registrationid/as/${ben.roleId}`, { token: admin.token, body: { agentId: ann.roleId } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error?.message).toBe('Agent ID is required: the agentId in the body differs from the one in the path');
  });

  it('answers 404 for an unknown agent and 400 for a blocked one', async () => {
    const unknown = await ctx.api('POST', '/api/registrationid/as/999999', { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe('Agent not found');
    const inactive = await ctx.api('POST', `/api/registrationid/as/${blocked.roleId}`, { token: admin.token });
    expect(inactive.status).toBe(400);
    expect(inactive.body.error?.message).toBe('This agent is not active; unblock the agent before creating Registration IDs');
  });

  it('is for admins only', async () => {
    expect((await ctx.api('POST', `/api/registrationid/as/${ann.roleId}`, { token: employee })).status).toBe(403);
    expect((await ctx.api('POST', `/api/registrationid/as/${ann.roleId}`, { token: ann.token })).status).toBe(403);
    expect((await ctx.api('POST', `/api/registrationid/as/${ann.roleId}`, { token: customerToken })).status).toBe(403);
    expect((await ctx.api('POST', `/api/registrationid/as/${ann.roleId}`)).status).toBe(401);
  });
});

describe('POST /api/registrationid/search', () => {
  it('shows an agent only their own codes, newest first, 100 per page by default', async () => {
    const res = await search(ann.token, { filter: [] });
    expect(res.status).toBe(200);
    expect(codes(res)).toEqual(annCodes);
    expect(res.body.data.paging).toEqual({ totalCount: 5, pageIndex: 0, pageSize: 100 });
    expect(res.body.data.data.every((row: Item) => row.agent.id === ann.roleId)).toBe(true);
  });

  it("shows staff every agent's codes with the agent's name", async () => {
    const res = await search(employee, {});
    expect(res.body.data.paging.totalCount).toBe(9);
    // Live codes are masked for employees (role-table.test.ts, the grey areas).
    const benRow = res.body.data.data.find((row: Item) => row.code === `********${benCodes[0]!.slice(-4)}`);
    expect(benRow.agent).toEqual({ id: ben.roleId, firstName: 'Ben', lastName: 'Broker' });
    const onlyBen = await search(admin.token, { filter: [{ name: 'agentId', value: ben.roleId }] });
    expect(codes(onlyBen)).toEqual(benCodes);
  });

  it('filters by status, after a code has been used to register', async () => {
    const used = annCodes[2]!;
    const signup = await registerWith(used.toLowerCase());
    expect(signup.status).toBe(200);
    const registered = await search(ann.token, { filter: [{ name: 'status', value: RegistrationIdStatus.Registered }] });
    expect(codes(registered)).toEqual([used]);
    expect(registered.body.data.data[0]).toMatchObject({ status: RegistrationIdStatus.Registered, datetimeRegistered: ctx.clock.now().toISOString() });
    const pending = await search(ann.token, { filter: [{ name: 'status', value: String(RegistrationIdStatus.Pending) }] });
    expect(codes(pending)).toEqual(annCodes.filter((code) => code !== used));
    const expired = await search(ann.token, { filter: [{ name: 'status', value: RegistrationIdStatus.Expired }] });
    expect(expired.body.data).toEqual({ data: [], paging: { totalCount: 0, pageIndex: 0, pageSize: 100 } });
    // "All Statuses": no value, an empty value or 0.
    for (const value of [null, '', 0]) expect((await search(ann.token, { filter: [{ name: 'status', value }] })).body.data.paging.totalCount).toBe(5);
  });

  it('filters by part of the code, in any case', async () => {
    const code = annCodes[0]!;
    expect(codes(await search(ann.token, { filter: [{ name: 'code', value: code.slice(3, 9).toLowerCase() }] }))).toEqual([code]);
  });

  it("never shows an agent another agent's code, even when the filter names it", async () => {
    const other = await search(ann.token, { filter: [{ name: 'code', value: benCodes[0] }] });
    expect(other.body.data).toEqual({ data: [], paging: { totalCount: 0, pageIndex: 0, pageSize: 100 } });
    const otherAgent = await search(ann.token, { filter: [{ name: 'agentId', value: ben.roleId }] });
    expect(otherAgent.status).toBe(404);
    expect(otherAgent.body.error?.message).toBe('Agent not found');
    const ownAgent = await search(ann.token, { filter: [{ name: 'agentId', value: ann.roleId }] });
    expect(ownAgent.body.data.paging.totalCount).toBe(5);
  });

  it('pages: last page, empty page beyond the end, page size limits', async () => {
    const last = await search(ann.token, { pageIndex: 2, pageSize: 2 });
    expect(codes(last)).toEqual([annCodes[4]]);
    expect(last.body.data.paging).toEqual({ totalCount: 5, pageIndex: 2, pageSize: 2 });
    const beyond = await search(ann.token, { pageIndex: 3, pageSize: 2 });
    expect(beyond.body.data).toEqual({ data: [], paging: { totalCount: 5, pageIndex: 3, pageSize: 2 } });
    const tooBig = await search(ann.token, { pageSize: 101 });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.error?.message).toBe(`body.pageSize: ${messages.pageSizeTooLarge}`);
  });

  it('refuses unknown filters and bad values with a message', async () => {
    const unknown = await search(admin.token, { filter: [{ name: 'colour', value: 'red' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.message).toBe("Unknown filter 'colour'; use status, code, agentId");
    const badStatus = await search(admin.token, { filter: [{ name: 'status', value: 9 }] });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error?.message).toBe('filter status must be 1 (Pending), 2 (Registered) or 3 (Expired)');
    const badAgent = await search(admin.token, { filter: [{ name: 'agentId', value: 'x' }] });
    expect(badAgent.status).toBe(400);
    expect(badAgent.body.error?.message).toBe('filter agentId must be an id, a whole number from 1 to 2147483647');
  });

  it('is closed to customers and anonymous callers', async () => {
    expect((await search(customerToken, {})).status).toBe(403);
    expect((await search(undefined, {})).status).toBe(401);
  });
});

describe('GET /api/registrationid/statistics', () => {
  it("counts an agent's own codes, and everyone's for staff", async () => {
    const own = await ctx.api('GET', '/api/registrationid/statistics', { token: ann.token });
    expect(own.body).toEqual({ successful: true, data: { used: 1, pending: 4, expired: 0 }, error: null });
    const benOwn = await ctx.api('GET', '/api/registrationid/statistics', { token: ben.token });
    expect(benOwn.body.data).toEqual({ used: 0, pending: 4, expired: 0 });
    for (const token of [admin.token, employee]) {
      const all = await ctx.api('GET', '/api/registrationid/statistics', { token });
      expect(all.body.data).toEqual({ used: 1, pending: 8, expired: 0 });
    }
    expect((await ctx.api('GET', '/api/registrationid/statistics', { token: customerToken })).status).toBe(403);
    expect((await ctx.api('GET', '/api/registrationid/statistics')).status).toBe(401);
  });
});
