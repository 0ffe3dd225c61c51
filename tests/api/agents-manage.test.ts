import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType } from '../../contract/enums';
import { server as messages } from '../../contract/messages';
import { staffActions } from '../../server/db/schema/index';
import { countryId, createPerson, loginAs, personWithToken, uniqueEmail, PASSWORD, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let admin: Person & { token: string };
let employee: string;
let th: number;

const staffLog = (targetType: string, targetId: number) =>
  ctx.deps.db.select().from(staffActions).where(and(eq(staffActions.targetType, targetType), eq(staffActions.targetId, String(targetId))));

async function newAgentAccount(firstName = 'new', email = uniqueEmail('agent')): Promise<number> {
  const res = await ctx.api('POST', '/api/account', {
    token: admin.token,
    body: { firstName, lastName: 'agent', email, age: 41, phone: '+66812345678', countryId: th, gender: 2, password: PASSWORD, accountType: AccountType.Agent },
  });
  expect(res.status).toBe(200);
  return res.body.data.id;
}

beforeAll(async () => {
  ctx = await createTestContext();
  th = await countryId(ctx, 'TH');
  admin = await personWithToken(ctx, AccountType.Admin);
  employee = (await personWithToken(ctx, AccountType.Employee)).token;
});
afterAll(async () => ctx?.close());

describe('POST /api/agent', () => {
  it('makes an account of type 2 an agent, logged as a staff action', async () => {
    const accountId = await newAgentAccount('dana');
    const res = await ctx.api('POST', '/api/agent', { token: admin.token, body: { accountId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ successful: true, data: { success: true, id: expect.any(Number) }, error: null });
    const agentId = res.body.data.id;
    const agent = await ctx.api('GET', `/api/agent/${agentId}`, { token: admin.token });
    expect(agent.body.data).toMatchObject({ id: agentId, totalCustomers: 0, account: { id: accountId, firstName: 'Dana', status: AccountStatus.Active, role: { accountType: AccountType.Agent } } });
    const log = await staffLog('agent', agentId);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ actorAccountId: admin.accountId, action: 'create', details: { accountId } });
  });

  it('refuses a second agent record for the same account', async () => {
    const accountId = await newAgentAccount();
    expect((await ctx.api('POST', '/api/agent', { token: admin.token, body: { accountId } })).status).toBe(200);
    const again = await ctx.api('POST', '/api/agent', { token: admin.token, body: { accountId } });
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe('This account is already an agent');
  });

  it('refuses accounts of another type, unknown accounts and bad bodies', async () => {
    const customer = await createPerson(ctx, AccountType.Customer);
    const wrongType = await ctx.api('POST', '/api/agent', { token: admin.token, body: { accountId: customer.accountId } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error?.message).toBe('Invalid account type: create the account with accountType 2 (Agent) before making it an agent');
    const unknown = await ctx.api('POST', '/api/agent', { token: admin.token, body: { accountId: 999999 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe('Account not found');
    const missing = await ctx.api('POST', '/api/agent', { token: admin.token, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toBe('body.accountId: must be a number');
  });

  it('is for admins only', async () => {
    const accountId = await newAgentAccount();
    expect((await ctx.api('POST', '/api/agent', { token: employee, body: { accountId } })).status).toBe(403);
    expect((await ctx.api('POST', '/api/agent', { body: { accountId } })).status).toBe(401);
    const agent = await personWithToken(ctx, AccountType.Agent);
    expect((await ctx.api('POST', '/api/agent', { token: agent.token, body: { accountId } })).status).toBe(403);
  });
});

describe('PUT /api/agent', () => {
  const update = (agent: Person, changes: Record<string, unknown> = {}, token = admin.token) =>
    ctx.api('PUT', '/api/agent', {
      token,
      body: { agentID: agent.roleId, firstName: 'mary ann', lastName: 'lee', email: agent.email, age: 35, phone: '+6598765432', countryId: th, gender: 2, status: AccountStatus.Active, passphrase: '', ...changes },
    });

  it('updates the personal fields (names capitalised) and logs which fields changed', async () => {
    const agent = await createPerson(ctx, AccountType.Agent);
    const newEmail = uniqueEmail('renamed');
    const res = await update(agent, { email: newEmail });
    expect(res.body).toEqual({ successful: true, data: { success: true }, error: null });
    const after = await ctx.api('GET', `/api/agent/${agent.roleId}`, { token: admin.token });
    expect(after.body.data.account).toMatchObject({
      firstName: 'Mary Ann',
      lastName: 'Lee',
      email: newEmail,
      age: 35,
      phone: '+6598765432',
      gender: 2,
      country: { id: th, countryCode: 'TH' },
      status: AccountStatus.Active,
    });
    const [log] = await staffLog('agent', agent.roleId);
    expect(log).toMatchObject({ actorAccountId: admin.accountId, action: 'update', details: { changed: ['firstName', 'lastName', 'email', 'age', 'phone', 'countryId', 'gender'] } });
  });

  it('blocks and unblocks through status: a blocked agent is signed out and counted as blocked', async () => {
    const agent = await personWithToken(ctx, AccountType.Agent);
    expect((await ctx.api('GET', '/api/agent', { token: agent.token })).status).toBe(200);
    const before = (await ctx.api('GET', '/api/agent/statistics', { token: admin.token })).body.data;
    expect((await update(agent, { status: AccountStatus.Blocked })).status).toBe(200);
    expect((await ctx.api('GET', '/api/agent', { token: agent.token })).status).toBe(401);
    const blocked = (await ctx.api('GET', '/api/agent/statistics', { token: admin.token })).body.data;
    expect(blocked).toEqual({ active: before.active - 1, blocked: before.blocked + 1 });
    const logs = await staffLog('agent', agent.roleId);
    expect(logs.at(-1)!.details).toMatchObject({ statusFrom: AccountStatus.Active, statusTo: AccountStatus.Blocked });
    expect((await update(agent, { status: AccountStatus.Active })).status).toBe(200);
    expect((await ctx.api('GET', '/api/agent/statistics', { token: admin.token })).body.data).toEqual(before);
    expect(typeof (await loginAs(ctx, agent))).toBe('string');
  });

  it('ignores passphrase: the password stays as it was', async () => {
    const agent = await createPerson(ctx, AccountType.Agent);
    expect((await update(agent, { passphrase: 'new secret words' })).status).toBe(200);
    expect(typeof (await loginAs(ctx, { email: agent.email, password: PASSWORD }))).toBe('string');
  });

  it('refuses an email another account uses, an unknown agent, a bad status or country', async () => {
    const agent = await createPerson(ctx, AccountType.Agent);
    const taken = await update(agent, { email: admin.email.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.error?.message).toBe(messages.emailTaken);
    const unknown = await update({ ...agent, roleId: 999999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe('Agent not found');
    const badStatus = await update(agent, { status: AccountStatus.Pending });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error?.message).toBe('body.status: status must be 2 (Blocked) or 3 (Active)');
    const badCountry = await update(agent, { countryId: 999999 });
    expect(badCountry.status).toBe(400);
    expect(badCountry.body.error?.message).toBe('countryId: no country with this id');
    // Nothing changed and nothing was logged.
    expect(await staffLog('agent', agent.roleId)).toHaveLength(0);
  });

  it('is for admins only', async () => {
    const agent = await personWithToken(ctx, AccountType.Agent);
    expect((await update(agent, {}, employee)).status).toBe(403);
    expect((await update(agent, {}, agent.token)).status).toBe(403);
  });
});

describe('DELETE /api/agent/:id', () => {
  it('soft-deletes the agent: gone from lists and lookups, signed out, logged', async () => {
    const agent = await personWithToken(ctx, AccountType.Agent);
    const before = (await ctx.api('GET', '/api/agent/all', { token: admin.token })).body.data.paging.totalCount;
    const res = await ctx.api('DELETE', `/api/agent/${agent.roleId}`, { token: admin.token });
    expect(res.body).toEqual({ successful: true, data: { success: true }, error: null });
    expect((await ctx.api('GET', `/api/agent/${agent.roleId}`, { token: admin.token })).status).toBe(404);
    expect((await ctx.api('GET', '/api/agent/all', { token: admin.token })).body.data.paging.totalCount).toBe(before - 1);
    expect((await ctx.api('GET', '/api/agent', { token: agent.token })).status).toBe(401);
    const [log] = await staffLog('account', agent.accountId);
    expect(log).toMatchObject({ actorAccountId: admin.accountId, action: 'delete' });
    const again = await ctx.api('DELETE', `/api/agent/${agent.roleId}`, { token: admin.token });
    expect(again.status).toBe(404);
  });

  it('refuses an agent who still has customers, saying how many; both delete paths (issue 28 item 6)', async () => {
    const agent = await createPerson(ctx, AccountType.Agent);
    const kept = await Promise.all([0, 1].map(() => createPerson(ctx, AccountType.Customer, { agentId: agent.roleId })));
    const refused = await ctx.api('DELETE', `/api/agent/${agent.roleId}`, { token: admin.token });
    expect(refused.status).toBe(409);
    expect(refused.body.error?.message).toBe(messages.agentHasCustomers(2));
    const byStatus = await ctx.api('PATCH', `/api/security/status/${agent.accountId}`, { token: admin.token, body: { status: 0 } });
    expect([byStatus.status, byStatus.body.error?.message]).toEqual([409, messages.agentHasCustomers(2)]);
    expect((await ctx.api('GET', `/api/agent/${agent.roleId}`, { token: admin.token })).body.data.totalCustomers).toBe(2);
    for (const customer of kept) expect((await ctx.api('GET', `/api/customer/${customer.roleId}`, { token: admin.token })).body.data.agent.id).toBe(agent.roleId);
  });

  it('moves the customers to the chosen agent and deletes, in one step, logged; never to itself or a blocked agent', async () => {
    const agent = await createPerson(ctx, AccountType.Agent);
    const next = await createPerson(ctx, AccountType.Agent);
    const blocked = await createPerson(ctx, AccountType.Agent, { status: AccountStatus.Blocked });
    const moving = await Promise.all([0, 1, 2].map(() => createPerson(ctx, AccountType.Customer, { agentId: agent.roleId })));
    const toItself = await ctx.api('DELETE', `/api/agent/${agent.roleId}?moveCustomersTo=${agent.roleId}`, { token: admin.token });
    expect([toItself.status, toItself.body.error?.message]).toEqual([400, messages.moveToSameAgent]);
    const toBlocked = await ctx.api('DELETE', `/api/agent/${agent.roleId}?moveCustomersTo=${blocked.roleId}`, { token: admin.token });
    expect([toBlocked.status, toBlocked.body.error?.message]).toEqual([400, 'moveCustomersTo: Active agent not found']);
    expect((await ctx.api('GET', `/api/agent/${agent.roleId}`, { token: admin.token })).status).toBe(200);
    const moved = await ctx.api('DELETE', `/api/agent/${agent.roleId}?moveCustomersTo=${next.roleId}`, { token: admin.token });
    expect(moved.body).toEqual({ successful: true, data: { success: true }, error: null });
    expect((await ctx.api('GET', `/api/agent/${agent.roleId}`, { token: admin.token })).status).toBe(404);
    expect((await ctx.api('GET', `/api/agent/${next.roleId}`, { token: admin.token })).body.data.totalCustomers).toBe(3);
    for (const customer of moving) expect((await ctx.api('GET', `/api/customer/${customer.roleId}`, { token: admin.token })).body.data.agent.id).toBe(next.roleId);
    const [log] = await ctx.deps.db.select().from(staffActions).where(and(eq(staffActions.action, 'customers.move'), eq(staffActions.targetId, String(agent.roleId))));
    expect(log).toMatchObject({ actorAccountId: admin.accountId, targetType: 'agent', details: { toAgentId: next.roleId, customers: 3 } });
  });

  it('is for admins only', async () => {
    const agent = await personWithToken(ctx, AccountType.Agent);
    expect((await ctx.api('DELETE', `/api/agent/${agent.roleId}`, { token: employee })).status).toBe(403);
    expect((await ctx.api('DELETE', `/api/agent/${agent.roleId}`, { token: agent.token })).status).toBe(403);
    expect((await ctx.api('DELETE', `/api/agent/${agent.roleId}`)).status).toBe(401);
    expect((await ctx.api('GET', `/api/agent/${agent.roleId}`, { token: admin.token })).status).toBe(200);
  });
});
