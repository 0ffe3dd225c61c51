import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType, OrderEntryType, OrderStatus } from '../../contract/enums';
import { customers, executions, orders, strategies } from '../../server/db/schema/index';
import { monthStart } from '../../server/modules/agents/dashboard';
import { createPerson, personWithToken, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let ann: Person & { token: string };
let ben: Person & { token: string };
let admin: string;
let employee: string;
let customerToken: string;
let sequence = 0;

/** An Order closed at `closedAt` with each customer's realized PnL. */
async function closedOrder(closedAt: string, pnl: Array<[number, string]>): Promise<void> {
  const [order] = await ctx.deps.db
    .insert(orders)
    .values({ strategyId: 'AGDASH', side: 1, status: OrderStatus.Win, entryType: OrderEntryType.Api, datetimeInserted: new Date(closedAt), closedAt: new Date(closedAt) })
    .returning();
  for (const [customerId, realizedPnl] of pnl) {
    sequence += 1;
    await ctx.deps.db.insert(executions).values({ orderId: order!.id, customerId, clientOrderId: `agdash-${sequence}`, deadlineAt: new Date(closedAt), realizedPnl });
  }
}

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.set(new Date('2025-03-15T12:00:00Z'));
  admin = (await personWithToken(ctx, AccountType.Admin)).token;
  employee = (await personWithToken(ctx, AccountType.Employee)).token;
  ann = await personWithToken(ctx, AccountType.Agent);
  ben = await personWithToken(ctx, AccountType.Agent);
  const x = await createPerson(ctx, AccountType.Customer, { agentId: ann.roleId });
  const y = await createPerson(ctx, AccountType.Customer, { agentId: ann.roleId, status: AccountStatus.Pending });
  const z = await createPerson(ctx, AccountType.Customer, { agentId: ben.roleId });
  customerToken = (await personWithToken(ctx, AccountType.Customer)).token;
  for (const [id, pct] of [[x.roleId, '10'], [y.roleId, '50'], [z.roleId, '20']] as const) {
    await ctx.deps.db.update(customers).set({ profitSharePct: pct }).where(eq(customers.id, id));
  }
  await ctx.deps.db.insert(strategies).values({
    id: 'AGDASH', symbol: 'BTCUSDT', entryDirection: 1, leverage: 5, positionMode: 1, takeProfitType: 3, takeProfitMode: 1,
    tp1TargetLevel: '1', tp1CloseVolume: '100', stopLossType: 3, stopLossAmount: '1',
  });
  // January: x +300 (fee 30). February (the previous month): x +100 (10), y +40 (20), z +1000 (200, Ben's).
  // March (this month): x +500 (50), not in the previous month. A losing month earns nothing.
  await closedOrder('2025-01-20T00:00:00Z', [[x.roleId, '300'], [y.roleId, '-80']]);
  await closedOrder('2025-02-01T00:00:00Z', [[x.roleId, '100'], [y.roleId, '40'], [z.roleId, '1000']]);
  await closedOrder('2025-03-01T00:00:00Z', [[x.roleId, '500']]);
});
afterAll(async () => ctx?.close());

describe('monthStart', () => {
  it('gives the first instant of a UTC month, across year ends', () => {
    expect(monthStart(new Date('2025-01-31T23:59:59Z'), -1).toISOString()).toBe('2024-12-01T00:00:00.000Z');
    expect(monthStart(new Date('2025-03-01T00:00:00Z')).toISOString()).toBe('2025-03-01T00:00:00.000Z');
  });
});

describe('GET /api/agent/dashboard/statistics', () => {
  it("answers the agent's live customer count and earnings from the earnings rules", async () => {
    const res = await ctx.api('GET', '/api/agent/dashboard/statistics', { token: ann.token });
    expect(res.body).toEqual({ successful: true, data: { totalCustomers: 2, prevMonthAmountEarned: 30, totalAmountEarned: 110 }, error: null });
    const benRes = await ctx.api('GET', '/api/agent/dashboard/statistics', { token: ben.token });
    expect(benRes.body.data).toEqual({ totalCustomers: 1, prevMonthAmountEarned: 200, totalAmountEarned: 200 });
  });

  it('moves with the clock: next month, March becomes the previous month', async () => {
    ctx.clock.set(new Date('2025-04-02T00:00:00Z'));
    try {
      const res = await ctx.api('GET', '/api/agent/dashboard/statistics', { token: ann.token });
      expect(res.body.data).toEqual({ totalCustomers: 2, prevMonthAmountEarned: 50, totalAmountEarned: 110 });
    } finally {
      ctx.clock.set(new Date('2025-03-15T12:00:00Z'));
    }
  });

  it('is for agents only', async () => {
    expect((await ctx.api('GET', '/api/agent/dashboard/statistics', { token: admin })).status).toBe(403);
    expect((await ctx.api('GET', '/api/agent/dashboard/statistics', { token: customerToken })).status).toBe(403);
    expect((await ctx.api('GET', '/api/agent/dashboard/statistics')).status).toBe(401);
  });
});

describe('GET /api/agent/dashboard/statistics/:agentId', () => {
  it('gives staff any agent and an agent only their own', async () => {
    for (const token of [admin, employee]) {
      const res = await ctx.api('GET', `/api/agent/dashboard/statistics/${ann.roleId}`, { token });
      expect(res.body.data).toEqual({ totalCustomers: 2, prevMonthAmountEarned: 30, totalAmountEarned: 110 });
    }
    const own = await ctx.api('GET', `/api/agent/dashboard/statistics/${ben.roleId}`, { token: ben.token });
    expect(own.body.data).toEqual({ totalCustomers: 1, prevMonthAmountEarned: 200, totalAmountEarned: 200 });
    const other = await ctx.api('GET', `/api/agent/dashboard/statistics/${ann.roleId}`, { token: ben.token });
    expect(other.status).toBe(404);
    expect(other.body.error?.message).toBe('Agent not found');
  });

  it('answers 404 for unknown agents, 400 for bad ids, 403 for customers', async () => {
    expect((await ctx.api('GET', '/api/agent/dashboard/statistics/999999', { token: admin })).status).toBe(404);
    expect((await ctx.api('GET', '/api/agent/dashboard/statistics/x', { token: admin })).status).toBe(400);
    expect((await ctx.api('GET', `/api/agent/dashboard/statistics/${ann.roleId}`, { token: customerToken })).status).toBe(403);
  });
});
