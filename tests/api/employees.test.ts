import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType, OrderEntryType, OrderStatus } from '../../contract/enums';
import { customers, executions, orders, staffActions, strategies } from '../../server/db/schema/index';
import { countryId, createPerson, personWithToken, uniqueEmail, PASSWORD, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let admin: Person & { token: string };
let employee: Person & { token: string };
let agentToken: string;
let customerToken: string;
let de: number;

const ids = (body: { data: { data: Array<{ id: number }> } }) => body.data.data.map((row) => row.id);

async function newStaffAccount(accountType: number): Promise<number> {
  const res = await ctx.api('POST', '/api/account', {
    token: admin.token,
    body: { firstName: 'staff', lastName: 'member', email: uniqueEmail('staff'), age: 33, phone: '+4915112345678', countryId: de, gender: 1, password: PASSWORD, accountType },
  });
  expect(res.status).toBe(200);
  return res.body.data.id;
}

beforeAll(async () => {
  ctx = await createTestContext();
  de = await countryId(ctx, 'DE');
  admin = await personWithToken(ctx, AccountType.Admin, { firstName: 'Ada', lastName: 'Admin', country: 'DE' });
  employee = await personWithToken(ctx, AccountType.Employee, { firstName: 'Eve', lastName: 'Employee' });
  const agent = await personWithToken(ctx, AccountType.Agent);
  agentToken = agent.token;
  customerToken = (await personWithToken(ctx, AccountType.Customer, { agentId: agent.roleId })).token;
});
afterAll(async () => ctx?.close());

describe('GET /api/employee/all and /api/employee/:id', () => {
  it('lists employees and admins newest first with their account', async () => {
    const res = await ctx.api('GET', '/api/employee/all?pageIndex=0', { token: employee.token });
    expect(res.status).toBe(200);
    expect(res.body.data.paging).toEqual({ totalCount: 2, pageIndex: 0, pageSize: 50 });
    expect(ids(res.body)).toEqual([employee.roleId, admin.roleId]);
    expect(res.body.data.data[1]).toEqual({
      id: admin.roleId,
      account: {
        id: admin.accountId,
        firstName: 'Ada',
        lastName: 'Admin',
        email: admin.email,
        age: 30,
        phone: '+6591234567',
        gender: 1,
        country: { id: de, name: 'Germany', countryCode: 'DE', imageUrl: '/flags/de.svg' },
        status: AccountStatus.Active,
        datetimeInserted: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        role: { accountType: AccountType.Admin },
      },
    });
  });

  it('pages: last page, empty page beyond the end, too large a page', async () => {
    const last = await ctx.api('GET', '/api/employee/all?pageIndex=1&pageSize=1', { token: admin.token });
    expect(ids(last.body)).toEqual([admin.roleId]);
    const beyond = await ctx.api('GET', '/api/employee/all?pageIndex=2&pageSize=1', { token: admin.token });
    expect(beyond.body.data).toEqual({ data: [], paging: { totalCount: 2, pageIndex: 2, pageSize: 1 } });
    expect((await ctx.api('GET', '/api/employee/all?pageSize=500', { token: admin.token })).status).toBe(400);
  });

  it('answers one staff member by id, 404 when unknown', async () => {
    const res = await ctx.api('GET', `/api/employee/${employee.roleId}`, { token: admin.token });
    expect(res.body.data).toMatchObject({ id: employee.roleId, account: { firstName: 'Eve', role: { accountType: AccountType.Employee } } });
    const unknown = await ctx.api('GET', '/api/employee/999999', { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe('Employee not found');
  });

  it('is for staff only', async () => {
    for (const token of [agentToken, customerToken]) {
      expect((await ctx.api('GET', '/api/employee/all', { token })).status).toBe(403);
      expect((await ctx.api('GET', `/api/employee/${employee.roleId}`, { token })).status).toBe(403);
    }
    expect((await ctx.api('GET', '/api/employee/all')).status).toBe(401);
  });
});

describe('POST /api/employee', () => {
  it.each([
    ['User', AccountType.Employee],
    ['Super Admin', AccountType.Admin],
  ])('adds a %s account as staff and logs it', async (_label, accountType) => {
    const accountId = await newStaffAccount(accountType);
    const res = await ctx.api('POST', '/api/employee', { token: admin.token, body: { accountId } });
    expect(res.body).toEqual({ successful: true, data: { success: true, id: expect.any(Number) }, error: null });
    const created = await ctx.api('GET', `/api/employee/${res.body.data.id}`, { token: employee.token });
    expect(created.body.data.account).toMatchObject({ id: accountId, firstName: 'Staff', role: { accountType } });
    const log = await ctx.deps.db
      .select()
      .from(staffActions)
      .where(and(eq(staffActions.targetType, 'employee'), eq(staffActions.targetId, String(res.body.data.id))));
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ actorAccountId: admin.accountId, action: 'create', details: { accountId, accountType } });
  });

  it('refuses agents and customers, duplicates and unknown accounts', async () => {
    const agent = await createPerson(ctx, AccountType.Agent);
    const wrong = await ctx.api('POST', '/api/employee', { token: admin.token, body: { accountId: agent.accountId } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.message).toBe('Invalid account type: create the account with accountType 3 (User) or 4 (Super Admin) before adding it as staff');
    const duplicate = await ctx.api('POST', '/api/employee', { token: admin.token, body: { accountId: employee.accountId } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error?.message).toBe('This account is already a staff member');
    expect((await ctx.api('POST', '/api/employee', { token: admin.token, body: { accountId: 999999 } })).status).toBe(404);
  });

  it('is for admins only', async () => {
    const accountId = await newStaffAccount(AccountType.Employee);
    for (const token of [employee.token, agentToken, customerToken]) {
      expect((await ctx.api('POST', '/api/employee', { token, body: { accountId } })).status).toBe(403);
    }
    expect((await ctx.api('POST', '/api/employee', { body: { accountId } })).status).toBe(401);
  });
});

describe('DELETE /api/employee/:id', () => {
  it('soft-deletes a staff member, who disappears and is signed out', async () => {
    const victim = await personWithToken(ctx, AccountType.Employee);
    const before = (await ctx.api('GET', '/api/employee/all', { token: admin.token })).body.data.paging.totalCount;
    const res = await ctx.api('DELETE', `/api/employee/${victim.roleId}`, { token: admin.token });
    expect(res.body).toEqual({ successful: true, data: { success: true }, error: null });
    expect((await ctx.api('GET', `/api/employee/${victim.roleId}`, { token: admin.token })).status).toBe(404);
    expect((await ctx.api('GET', '/api/employee/all', { token: admin.token })).body.data.paging.totalCount).toBe(before - 1);
    expect((await ctx.api('GET', '/api/employee/all', { token: victim.token })).status).toBe(401);
    expect((await ctx.api('DELETE', `/api/employee/${victim.roleId}`, { token: admin.token })).status).toBe(404);
  });

  it('refuses to delete oneself, and is for admins only', async () => {
    const self = await ctx.api('DELETE', `/api/employee/${admin.roleId}`, { token: admin.token });
    expect(self.status).toBe(400);
    expect(self.body.error?.message).toBe('You cannot delete your own account');
    expect((await ctx.api('DELETE', `/api/employee/${admin.roleId}`, { token: employee.token })).status).toBe(403);
    expect((await ctx.api('DELETE', `/api/employee/${employee.roleId}`, { token: agentToken })).status).toBe(403);
  });
});

describe('GET /api/employee/dashboard/statistics', () => {
  it('counts live agents and customers and sums every fee earned', async () => {
    const start = (await ctx.api('GET', '/api/employee/dashboard/statistics', { token: employee.token })).body.data;
    // The agent of beforeAll and the one of the 'refuses agents' test; one customer.
    expect(start).toEqual({ totalAgents: 2, totalCustomers: 1, totalAmountEarned: 0, totalWalletAmount: 0 });

    const agent = await createPerson(ctx, AccountType.Agent);
    const customer = await createPerson(ctx, AccountType.Customer, { agentId: agent.roleId });
    const other = await createPerson(ctx, AccountType.Customer, { agentId: agent.roleId });
    const gone = await createPerson(ctx, AccountType.Customer, { agentId: agent.roleId });
    await ctx.deps.db.update(customers).set({ profitSharePct: '25', currentWalletAmount: '1234.5' }).where(eq(customers.id, customer.roleId));
    await ctx.deps.db.update(customers).set({ currentWalletAmount: '100.25' }).where(eq(customers.id, other.roleId));
    await ctx.deps.db.update(customers).set({ currentWalletAmount: '5000' }).where(eq(customers.id, gone.roleId));
    expect((await ctx.api('DELETE', `/api/customer/${gone.roleId}`, { token: admin.token })).status).toBe(200);
    await ctx.deps.db.insert(strategies).values({
      id: 'DASH1', symbol: 'ETHUSDT', entryDirection: 1, leverage: 3, positionMode: 1, takeProfitType: 3, takeProfitMode: 1,
      tp1TargetLevel: '2', tp1CloseVolume: '100', stopLossType: 3, stopLossAmount: '1',
    });
    const closedAt = new Date('2025-06-10T00:00:00Z');
    const [order] = await ctx.deps.db
      .insert(orders)
      .values({ strategyId: 'DASH1', side: 1, status: OrderStatus.Win, entryType: OrderEntryType.Api, closedAt })
      .returning();
    await ctx.deps.db.insert(executions).values({ orderId: order!.id, customerId: customer.roleId, clientOrderId: 'dash-1', deadlineAt: closedAt, realizedPnl: '400' });

    const res = await ctx.api('GET', '/api/employee/dashboard/statistics', { token: admin.token });
    // 25% of 400; the wallets of the live customers (the deleted one's 5000 does not count).
    expect(res.body).toEqual({ successful: true, data: { totalAgents: 3, totalCustomers: 3, totalAmountEarned: 100, totalWalletAmount: 1334.75 }, error: null });
    expect((await ctx.api('GET', '/api/employee/dashboard/statistics', { token: agentToken })).status).toBe(403);
    expect((await ctx.api('GET', '/api/employee/dashboard/statistics')).status).toBe(401);
  });
});
