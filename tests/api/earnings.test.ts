import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, CustomerGroup, OrderEntryType, OrderStatus } from '../../contract/enums';
import { customers, executions, orders, strategies } from '../../server/db/schema/index';
import { amountEarned, reportYears } from '../../server/modules/earnings/service';
import { eq } from 'drizzle-orm';
import { createPerson, personWithToken } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let adminToken: string;
let employeeToken: string;
let agentA: number;
let agentB: number;
let alice: number;
let bob: number;
let carol: number;
let executionSeq = 0;

async function closedOrder(closedAt: string, pnl: Record<number, string>): Promise<number> {
  const [order] = await ctx.deps.db
    .insert(orders)
    .values({
      strategyId: 'EARN1',
      side: 1,
      status: OrderStatus.Win,
      entryType: OrderEntryType.Api,
      datetimeInserted: new Date(closedAt),
      closedAt: new Date(closedAt),
    })
    .returning();
  for (const [customerId, realizedPnl] of Object.entries(pnl)) {
    executionSeq += 1;
    await ctx.deps.db.insert(executions).values({
      orderId: order!.id,
      customerId: Number(customerId),
      clientOrderId: `earn-${executionSeq}`,
      deadlineAt: new Date(closedAt),
      realizedPnl,
    });
  }
  return order!.id;
}

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.set(new Date('2025-03-15T12:00:00Z'));
  adminToken = (await personWithToken(ctx, AccountType.Admin)).token;
  employeeToken = (await personWithToken(ctx, AccountType.Employee)).token;
  agentA = (await createPerson(ctx, AccountType.Agent)).roleId;
  agentB = (await createPerson(ctx, AccountType.Agent)).roleId;
  alice = (await createPerson(ctx, AccountType.Customer, { agentId: agentA, group: CustomerGroup.Gold })).roleId;
  bob = (await createPerson(ctx, AccountType.Customer, { agentId: agentA, group: CustomerGroup.Gold })).roleId;
  carol = (await createPerson(ctx, AccountType.Customer, { agentId: agentB, group: CustomerGroup.Gold })).roleId;
  await ctx.deps.db.update(customers).set({ profitSharePct: '30' }).where(eq(customers.id, alice));
  await ctx.deps.db.update(customers).set({ profitSharePct: '50' }).where(eq(customers.id, carol));
  // bob has no percentage of his own: the default (20) applies.
  await ctx.deps.db.insert(strategies).values({
    id: 'EARN1', symbol: 'BTCUSDT', entryDirection: 1, leverage: 5, positionMode: 1, takeProfitType: 3, takeProfitMode: 1,
    tp1TargetLevel: '1', tp1CloseVolume: '100', stopLossType: 3, stopLossAmount: '1',
  });
  // January 2025: alice +100 then -40 (net 60), bob +10, carol -25 (a loss earns nothing).
  await closedOrder('2025-01-10T00:00:00Z', { [alice]: '100', [bob]: '10', [carol]: '-25' });
  await closedOrder('2025-01-31T23:59:59Z', { [alice]: '-40' });
  // February 2025 (boundary: exactly 1 Feb 00:00 UTC belongs to February): alice 200, carol 80.
  await closedOrder('2025-02-01T00:00:00Z', { [alice]: '200', [carol]: '80' });
  // An open order earns nothing yet.
  const [open] = await ctx.deps.db.insert(orders).values({ strategyId: 'EARN1', side: 1, entryType: OrderEntryType.Api }).returning();
  await ctx.deps.db.insert(executions).values({ orderId: open!.id, customerId: alice, clientOrderId: 'earn-open', deadlineAt: new Date(), realizedPnl: '999' });
});
afterAll(async () => ctx?.close());

describe('amountEarned', () => {
  it('is percentage x monthly realized profit, per customer and month, with the default share for customers without one', async () => {
    // Jan: alice 30% of 60 = 18, bob 20% of 10 = 2, carol 0. Feb: alice 30% of 200 = 60, carol 50% of 80 = 40.
    expect(await amountEarned(ctx.deps.db)).toBe(120);
    expect(await amountEarned(ctx.deps.db, { from: new Date('2025-01-01T00:00:00Z'), to: new Date('2025-02-01T00:00:00Z') })).toBe(20);
    expect(await amountEarned(ctx.deps.db, { from: new Date('2025-02-01T00:00:00Z') })).toBe(100);
  });

  it('limits to one agent’s customers', async () => {
    expect(await amountEarned(ctx.deps.db, { agentId: agentA })).toBe(80);
    expect(await amountEarned(ctx.deps.db, { agentId: agentB })).toBe(40);
    expect(await amountEarned(ctx.deps.db, { agentId: agentB, to: new Date('2025-02-01T00:00:00Z') })).toBe(0);
  });

  it('takes only the profit above the monthly threshold, and follows a changed default share', async () => {
    const put = await ctx.api('PUT', '/api/settings/earnings', { token: adminToken, body: { defaultProfitSharePct: 10, monthlyThresholdUsdt: 50 } });
    expect(put.body).toEqual({ successful: true, data: { defaultProfitSharePct: 10, monthlyThresholdUsdt: 50 }, error: null });
    const logged = await ctx.handle.pool.query("select details from staff_actions where target_type = 'settings' and target_id = 'earnings' order by id desc limit 1");
    expect(logged.rows[0]?.details).toEqual({ defaultProfitSharePct: 10, monthlyThresholdUsdt: 50 });
    // Jan: alice 30% of (60-50) = 3, bob 10 < 50 -> 0. Feb: alice 30% of 150 = 45, carol 50% of 30 = 15.
    expect(await amountEarned(ctx.deps.db)).toBe(63);
    const get = await ctx.api('GET', '/api/settings/earnings', { token: employeeToken });
    expect(get.body.data).toEqual({ defaultProfitSharePct: 10, monthlyThresholdUsdt: 50 });
    await ctx.api('PUT', '/api/settings/earnings', { token: adminToken, body: { defaultProfitSharePct: 20, monthlyThresholdUsdt: 0 } });
    expect(await amountEarned(ctx.deps.db)).toBe(120);
  });
});

describe('earnings settings endpoint', () => {
  it('refuses employees changing it, and out-of-range values', async () => {
    const byEmployee = await ctx.api('PUT', '/api/settings/earnings', { token: employeeToken, body: { defaultProfitSharePct: 10, monthlyThresholdUsdt: 0 } });
    expect(byEmployee.status).toBe(403);
    const tooMuch = await ctx.api('PUT', '/api/settings/earnings', { token: adminToken, body: { defaultProfitSharePct: 101, monthlyThresholdUsdt: 0 } });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error?.message).toBe('body.defaultProfitSharePct: defaultProfitSharePct must be between 0 and 100');
    const negative = await ctx.api('PUT', '/api/settings/earnings', { token: adminToken, body: { defaultProfitSharePct: 10, monthlyThresholdUsdt: -1 } });
    expect(negative.body.error?.message).toBe('body.monthlyThresholdUsdt: monthlyThresholdUsdt cannot be negative');
  });
});

describe('GET /api/report/income', () => {
  it('answers 12 months of income and the spec\'s years 2024-2026', async () => {
    const report = await ctx.api('GET', '/api/report/income?year=2025', { token: employeeToken });
    expect(report.status).toBe(200);
    expect(report.body.data.year).toBe(2025);
    expect(report.body.data.years).toEqual([2024, 2025, 2026]);
    expect(report.body.data.months).toEqual([
      { month: 1, income: 20 },
      { month: 2, income: 100 },
      ...Array.from({ length: 10 }, (_, i) => ({ month: i + 3, income: 0 })),
    ]);
  });

  it('refuses a year without data with a clear message, and agents', async () => {
    const early = await ctx.api('GET', '/api/report/income?year=2023', { token: adminToken });
    expect(early.status).toBe(400);
    expect(early.body.error?.message).toBe('There is no income report for 2023; choose a year from 2024 to 2026');
    const agent = await personWithToken(ctx, AccountType.Agent);
    expect((await ctx.api('GET', '/api/report/income?year=2025', { token: agent.token })).status).toBe(403);
  });
});

describe('report years', () => {
  it('adds the years after 2026 up to the current one, and earlier years that have orders', async () => {
    // Sessions would expire if the clock jumped two years: ask the service for that date.
    expect(await reportYears(ctx.deps.db, new Date('2028-02-01T00:00:00Z'))).toEqual([2024, 2025, 2026, 2027, 2028]);
    const [old] = await ctx.deps.db.insert(orders).values({ strategyId: 'EARN1', side: 1, entryType: OrderEntryType.Api, datetimeInserted: new Date('2023-06-01T00:00:00Z') }).returning();
    expect((await ctx.api('GET', '/api/report/income?year=2023', { token: adminToken })).body.data.years).toEqual([2023, 2024, 2025, 2026]);
    await ctx.deps.db.delete(orders).where(eq(orders.id, old!.id));
  });
});

describe('positions closed before their order', () => {
  it('count in the month the customer’s own position closed, while the order is still open', async () => {
    const [open] = await ctx.deps.db.insert(orders).values({ strategyId: 'EARN1', side: 1, entryType: OrderEntryType.Api }).returning();
    await ctx.deps.db.insert(executions).values({
      orderId: open!.id, customerId: carol, clientOrderId: 'earn-early', deadlineAt: new Date(), realizedPnl: '100', closedAt: new Date('2025-03-05T00:00:00Z'),
    });
    expect(await amountEarned(ctx.deps.db, { from: new Date('2025-03-01T00:00:00Z'), to: new Date('2025-04-01T00:00:00Z') })).toBe(50);
    const report = await ctx.api('GET', '/api/report/income?year=2025', { token: adminToken });
    expect(report.body.data.months[2]).toEqual({ month: 3, income: 50 });
  });
});
