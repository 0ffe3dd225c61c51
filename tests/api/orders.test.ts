import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, CustomerGroup, OrderEntryType, OrderStatus, StrategyStatus } from '../../contract/enums';
import { customers, executions, orders, staffActions, strategies } from '../../server/db/schema/index';
import { createPerson, loginAs, personWithToken, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { guardedFetch } from '../helpers/fetch-guard';
import { startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import { useExchangeAccess } from '../../server/trading/exchanges/for-deps';

let ctx: TestContext;
let sandbox: RunningSandbox;
let admin: string;
let employee: string;
let ids: { jan: number; febLoss: number; febOpen: number };
let alice: Person & { token: string };
let bob: Person & { token: string };

const strategyBody = (id: string, symbol: string, groups: unknown[], exclusiveCustomerId: number | null = null) => ({
  id, symbol, groups, entryDirection: 1, leverage: 5, positionMode: 1, takeProfitType: 3, takeProfitMode: 1,
  tp1: { targetLevel: 1 }, stopLoss: { type: 3, amount: 1 }, trailingStop: false, exclusiveCustomerId,
});
const gold = { group: CustomerGroup.Gold, investAmount: { type: 1, amount: 100 } };

async function insertOrder(strategyId: string, at: string, status: number, side = 1): Promise<number> {
  const [row] = await ctx.deps.db
    .insert(orders)
    .values({ strategyId, side, status, entryType: OrderEntryType.Api, datetimeInserted: new Date(at), datetimeUpdated: new Date(at), realizedPnl: status === OrderStatus.Win ? '12.5' : '0' })
    .returning({ id: orders.id });
  return row!.id;
}

beforeAll(async () => {
  ctx = await createTestContext();
  sandbox = await startSandbox({ randomWalk: false });
  useExchangeAccess(ctx.deps, { sandboxUrl: sandbox.url, fetchImplementation: guardedFetch });
  admin = (await personWithToken(ctx, AccountType.Admin)).token;
  employee = (await personWithToken(ctx, AccountType.Employee)).token;
  alice = await personWithToken(ctx, AccountType.Customer, { group: CustomerGroup.Gold });
  bob = await personWithToken(ctx, AccountType.Customer, { group: CustomerGroup.Vip });
  for (const body of [strategyBody('BTC1', 'BTCUSDT', [gold]), strategyBody('ETH1', 'ETHUSDT', [gold, { group: CustomerGroup.Vip, investAmount: { type: 2, amount: 0.5 } }])]) {
    const created = await ctx.api('POST', '/api/strategy', { token: admin, body });
    expect(created.status).toBe(200);
  }
  ids = {
    jan: await insertOrder('BTC1', '2025-01-31T23:59:59Z', OrderStatus.Win),
    febLoss: await insertOrder('ETH1', '2025-02-01T00:00:00Z', OrderStatus.Loss, 2),
    febOpen: await insertOrder('BTC1', '2025-02-10T00:00:00Z', OrderStatus.Active),
  };
  await ctx.deps.db.insert(executions).values([
    { orderId: ids.jan, customerId: alice.roleId, clientOrderId: 'o-a-1', deadlineAt: new Date(), realizedPnl: '7.25', quantity: '0.002', entryPrice: '60000', createdAt: new Date('2025-01-31T23:59:59Z'), updatedAt: new Date('2025-02-01T01:00:00Z'), state: 'closed' },
    { orderId: ids.febLoss, customerId: alice.roleId, clientOrderId: 'o-a-2', deadlineAt: new Date(), realizedPnl: '-3', createdAt: new Date('2025-02-01T00:00:00Z'), state: 'closed' },
    { orderId: ids.febLoss, customerId: bob.roleId, clientOrderId: 'o-b-2', deadlineAt: new Date(), realizedPnl: '-4', createdAt: new Date('2025-02-01T00:00:00Z'), state: 'closed' },
  ]);
});
afterAll(async () => {
  await ctx?.close();
  await sandbox?.close();
});

const search = (body: unknown, token = employee) => ctx.api('POST', '/api/order/search', { token, body });
const idsOf = (answer: { body: { data: { data: Array<{ id: number }> } } }) => answer.body.data.data.map((o) => o.id);

describe('POST /api/order/search', () => {
  it('answers order rows newest first with their strategy', async () => {
    const all = await search({ filter: [] });
    expect(all.status).toBe(200);
    expect(all.body.data.paging).toEqual({ totalCount: 3, pageIndex: 0, pageSize: 50 });
    expect(idsOf(all)).toEqual([ids.febOpen, ids.febLoss, ids.jan]);
    expect(all.body.data.data[2]).toEqual({
      id: ids.jan,
      strategy: { id: 'BTC1', symbol: 'BTCUSDT' },
      status: OrderStatus.Win,
      entryType: OrderEntryType.Api,
      side: 1,
      realizedPnl: 12.5,
      closing: false,
      closeProgress: null,
      datetimeInserted: '2025-01-31T23:59:59.000Z',
      datetimeUpdated: '2025-01-31T23:59:59.000Z',
    });
  });

  it('filters by id, month (UTC) and symbol (with or without .P), together', async () => {
    expect(idsOf(await search({ filter: [{ name: 'id', value: ids.febLoss }] }))).toEqual([ids.febLoss]);
    expect(idsOf(await search({ filter: [{ name: 'datetimeInserted', value: '2025-01' }] }))).toEqual([ids.jan]);
    expect(idsOf(await search({ filter: [{ name: 'datetimeInserted', value: '2025-02' }] }))).toEqual([ids.febOpen, ids.febLoss]);
    expect(idsOf(await search({ filter: [{ name: 'strategy.symbol', value: 'btcusdt.P' }] }))).toEqual([ids.febOpen, ids.jan]);
    const both = await search({ filter: [{ name: 'strategy.symbol', value: 'BTCUSDT' }, { name: 'datetimeInserted', value: '2025-02' }] });
    expect(idsOf(both)).toEqual([ids.febOpen]);
    expect((await search({ filter: [{ name: 'datetimeInserted', value: '' }] })).body.data.paging.totalCount).toBe(3);
  });

  it('pages, and refuses bad filter values with a clear message', async () => {
    const second = await search({ filter: [], pageSize: 2, pageIndex: 1 });
    expect(idsOf(second)).toEqual([ids.jan]);
    expect(second.body.data.paging).toEqual({ totalCount: 3, pageIndex: 1, pageSize: 2 });
    const month = await search({ filter: [{ name: 'datetimeInserted', value: '2025-13' }] });
    expect(month.status).toBe(400);
    expect(month.body.error?.message).toBe('filter datetimeInserted must be a month written YYYY-MM, e.g. 2025-01');
    const id = await search({ filter: [{ name: 'id', value: 'abc' }] });
    expect(id.body.error?.message).toBe('filter id must be an id, a whole number from 1 to 2147483647');
    expect((await search({ filter: [], pageIndex: -1 })).body.error?.message).toBe('body.pageIndex: pageIndex starts at 0');
  });

  it('is for staff only', async () => {
    expect((await search({ filter: [] }, alice.token)).status).toBe(403);
    const agent = await personWithToken(ctx, AccountType.Agent);
    expect((await search({ filter: [] }, agent.token)).status).toBe(403);
  });
});

describe('order statistics and lists', () => {
  it('counts wins, losses and all deals', async () => {
    const stats = await ctx.api('GET', '/api/order/statistics', { token: employee });
    expect(stats.body).toEqual({ successful: true, data: { win: 1, loss: 1, totalDeal: 3 }, error: null });
  });

  it('lists the symbols with orders and every transaction id, newest first', async () => {
    expect((await ctx.api('GET', '/api/order/symbol/all', { token: employee })).body.data).toEqual({ symbols: ['BTCUSDT', 'ETHUSDT'] });
    expect((await ctx.api('GET', '/api/order/transactionids/all', { token: employee })).body.data).toEqual([ids.febOpen, ids.febLoss, ids.jan]);
  });
});

describe('manual orders and closing', () => {
  it('opens a manual long through the engine for every eligible customer, and logs it', async () => {
    await ctx.deps.db.update(customers).set({ platformType: 2, apiKeyEnc: 'enc-key', apiSecretEnc: 'enc-secret' }).where(eq(customers.id, alice.roleId));
    expect((await ctx.api('POST', '/api/strategy/BTC1/long', { token: employee })).status).toBe(403);
    const long = await ctx.api('POST', '/api/strategy/BTC1/long', { token: admin });
    expect(long.status).toBe(200);
    expect(long.body.data).toEqual({ orderId: expect.any(Number), strategyId: 'BTC1', side: 1, executions: 1, skipped: 0 });
    const [order] = await ctx.deps.db.select().from(orders).where(eq(orders.id, long.body.data.orderId));
    expect(order).toMatchObject({ strategyId: 'BTC1', side: 1, entryType: OrderEntryType.Manual, status: OrderStatus.Active });
    const short = await ctx.api('POST', '/api/strategy/ETH1/short', { token: admin });
    expect(short.body.data).toMatchObject({ strategyId: 'ETH1', side: 2, executions: 1 });
    const [log] = await ctx.deps.db.select().from(staffActions).where(and(eq(staffActions.action, 'manualOrder'), eq(staffActions.targetId, String(long.body.data.orderId))));
    expect(log?.details).toEqual({ strategyId: 'BTC1', side: 1, executions: 1, skipped: 0 });
    expect((await ctx.api('POST', '/api/strategy/NOSUCH/short', { token: admin })).status).toBe(404);
  });

  it('a manual order on an inactive strategy is refused (409, the reason in the envelope) and opens nothing', async () => {
    await ctx.deps.db.update(strategies).set({ status: StrategyStatus.Inactive }).where(eq(strategies.id, 'ETH1'));
    const ordersOfEth = () => ctx.deps.db.select({ id: orders.id }).from(orders).where(eq(orders.strategyId, 'ETH1'));
    const before = await ordersOfEth();
    const refused = await ctx.api('POST', '/api/strategy/ETH1/long', { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ successful: false, data: null, error: { message: 'Strategy ETH1 is inactive: activate it before placing an order.' } });
    expect(await ordersOfEth()).toEqual(before);
    await ctx.deps.db.update(strategies).set({ status: StrategyStatus.Active }).where(eq(strategies.id, 'ETH1'));
  });

  it('PATCH /api/order/:id asks the engine to close the order (admins only)', async () => {
    expect((await ctx.api('PATCH', `/api/order/${ids.febOpen}`, { token: employee })).status).toBe(403);
    expect((await ctx.api('PATCH', '/api/order/999999', { token: admin })).body).toEqual({ successful: false, data: null, error: { message: 'Order not found' } });
    const closed = await ctx.api('PATCH', `/api/order/${ids.febOpen}`, { token: admin });
    expect(closed.status).toBe(200);
    expect(closed.body.data.id).toBe(ids.febOpen);
    expect(closed.body.data.strategy).toEqual({ id: 'BTC1', symbol: 'BTCUSDT' });
    const [log] = await ctx.deps.db.select().from(staffActions).where(and(eq(staffActions.targetType, 'order'), eq(staffActions.targetId, String(ids.febOpen))));
    expect(log?.action).toBe('order.close');
  });

  it('a closed order cannot be closed again: 409, nothing logged twice', async () => {
    const again = await ctx.api('PATCH', `/api/order/${ids.febOpen}`, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ successful: false, data: null, error: { message: `Order ${ids.febOpen} is already closed.` } });
    const logs = await ctx.deps.db.select().from(staffActions).where(and(eq(staffActions.targetType, 'order'), eq(staffActions.targetId, String(ids.febOpen))));
    expect(logs).toHaveLength(1);
  });

  it('an order whose positions are being closed says so at once (closing), and a second close is refused', async () => {
    const orderId = await insertOrder('BTC1', '2025-03-01T00:00:00Z', OrderStatus.Active);
    await ctx.deps.db.insert(executions).values({ orderId, customerId: alice.roleId, clientOrderId: 'o-a-3', deadlineAt: new Date(), quantity: '0.002', entryPrice: '60000', state: 'open' });
    const before = await ctx.api('POST', '/api/order/search', { token: admin, body: { filter: [{ name: 'id', value: String(orderId) }] } });
    expect(before.body.data.data.map((o: { id: number; status: number; closing: boolean }) => [o.id, o.status, o.closing])).toEqual([[orderId, OrderStatus.Active, false]]);
    const first = await ctx.api('PATCH', `/api/order/${orderId}`, { token: admin });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id: orderId, status: OrderStatus.Active, closing: true });
    const after = await ctx.api('POST', '/api/order/search', { token: admin, body: { filter: [{ name: 'id', value: String(orderId) }] } });
    expect(after.body.data.data[0]).toMatchObject({ id: orderId, status: OrderStatus.Active, closing: true });
    const second = await ctx.api('PATCH', `/api/order/${orderId}`, { token: admin });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ successful: false, data: null, error: { message: `Order ${orderId} is already being closed.` } });
  });

  it('follows a close: closeProgress counts the executions that held a position, closed and still open (issue 28 item 2)', async () => {
    const orderId = await insertOrder('BTC1', '2025-03-02T00:00:00Z', OrderStatus.Active);
    const carol = await createPerson(ctx, AccountType.Customer, { group: CustomerGroup.Gold });
    const held = { deadlineAt: new Date(), quantity: '0.002', entryPrice: '60000' };
    const [first, second] = await ctx.deps.db
      .insert(executions)
      .values([
        { orderId, customerId: alice.roleId, clientOrderId: 'p-a', ...held, state: 'open' },
        { orderId, customerId: bob.roleId, clientOrderId: 'p-b', ...held, state: 'open' },
        { orderId, customerId: carol.roleId, clientOrderId: 'p-c', deadlineAt: new Date(), state: 'failed' },
      ])
      .returning({ id: executions.id });
    const progress = async () => {
      const found = await search({ filter: [{ name: 'id', value: String(orderId) }] }, admin);
      return { closing: found.body.data.data[0].closing, closeProgress: found.body.data.data[0].closeProgress };
    };
    expect(await progress()).toEqual({ closing: false, closeProgress: null });
    const asked = await ctx.api('PATCH', `/api/order/${orderId}`, { token: admin });
    expect(asked.body.data).toMatchObject({ closing: true, closeProgress: { total: 2, closed: 0, open: 2 } });
    // The engine closes one position and gives the other up (its close request dropped, the position kept).
    await ctx.deps.db.update(executions).set({ state: 'closed' }).where(eq(executions.id, first!.id));
    expect(await progress()).toEqual({ closing: true, closeProgress: { total: 2, closed: 1, open: 1 } });
    await ctx.deps.db.update(executions).set({ closeRequestedAt: null }).where(eq(executions.id, second!.id));
    expect(await progress()).toEqual({ closing: false, closeProgress: { total: 2, closed: 1, open: 1 } });
  });
});

describe('customer read-only pages', () => {
  it('shows a customer only their own executions with PnL, filtered like the order search', async () => {
    const mine = await ctx.api('POST', '/api/customer/orders/search', { token: alice.token, body: { filter: [{ name: 'datetimeInserted', value: '2025-01' }] } });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual({
      data: [
        {
          id: expect.any(Number),
          orderId: ids.jan,
          strategy: { id: 'BTC1', symbol: 'BTCUSDT' },
          side: 1,
          entryType: OrderEntryType.Api,
          status: OrderStatus.Win,
          state: 'closed',
          quantity: 0.002,
          entryPrice: 60000,
          realizedPnl: 7.25,
          datetimeInserted: '2025-01-31T23:59:59.000Z',
          datetimeUpdated: '2025-02-01T01:00:00.000Z',
        },
      ],
      paging: { totalCount: 1, pageIndex: 0, pageSize: 50 },
    });
    // February 2025 (the seeded months; the engine tests above opened orders of today for Bob too): Alice's
    // execution of the same order is not his.
    const bobs = await ctx.api('POST', '/api/customer/orders/search', { token: bob.token, body: { filter: [{ name: 'datetimeInserted', value: '2025-02' }] } });
    expect(bobs.body.data.data.map((e: { orderId: number; realizedPnl: number }) => [e.orderId, e.realizedPnl])).toEqual([[ids.febLoss, -4]]);
    expect((await ctx.api('POST', '/api/customer/orders/search', { token: employee, body: { filter: [] } })).status).toBe(403);
  });

  it('refuses a filter name it does not know with a clear 400, instead of ignoring it', async () => {
    const message = "body.filter.0.name: filter name must be one of id, datetimeInserted, strategy.symbol; 'status' is not one of them";
    for (const token of [alice.token, admin]) {
      const url = token === admin ? '/api/order/search' : '/api/customer/orders/search';
      const answer = await ctx.api('POST', url, { token, body: { filter: [{ name: 'status', value: 2 }] } });
      expect([url, answer.status, answer.body]).toEqual([url, 400, { successful: false, data: null, error: { message } }]);
    }
    const known = await ctx.api('POST', '/api/customer/orders/search', { token: alice.token, body: { filter: [{ name: 'strategy.symbol', value: 'NOPEUSDT' }] } });
    expect([known.status, known.body.data.paging.totalCount]).toEqual([200, 0]);
  });

  it('shows a customer the strategies of their group with their own invest amount and no webhook', async () => {
    const vip = await ctx.api('POST', '/api/customer/strategies/search', { token: bob.token, body: { filter: [] } });
    expect(vip.body.data.paging.totalCount).toBe(1);
    const [row] = vip.body.data.data;
    expect(row.id).toBe('ETH1');
    expect(row.investAmount).toEqual({ type: 2, amount: 0.5 });
    expect(row).not.toHaveProperty('webhookUrl');
    expect(row).not.toHaveProperty('groups');
    const goldRows = await ctx.api('POST', '/api/customer/strategies/search', { token: alice.token, body: { filter: [{ name: 'symbol', value: 'BTC' }] } });
    expect(goldRows.body.data.data.map((s: { id: string }) => s.id)).toEqual(['BTC1']);
  });

  it('shows an Exclusive customer only the strategies chosen for them', async () => {
    const exclusive = await createPerson(ctx, AccountType.Customer, { group: CustomerGroup.Exclusive });
    const other = await createPerson(ctx, AccountType.Customer, { group: CustomerGroup.Exclusive });
    const groups = [
      { group: CustomerGroup.Internal, investAmount: { type: 1, amount: 10 } },
      { group: CustomerGroup.Exclusive, investAmount: { type: 1, amount: 20 } },
    ];
    expect((await ctx.api('POST', '/api/strategy', { token: admin, body: strategyBody('EXC1', 'SOLUSDT', groups, exclusive.roleId) })).status).toBe(200);
    const token = await loginAs(ctx, exclusive);
    const visible = await ctx.api('POST', '/api/customer/strategies/search', { token, body: { filter: [] } });
    expect(visible.body.data.data.map((s: { id: string; investAmount: unknown }) => [s.id, s.investAmount])).toEqual([['EXC1', { type: 1, amount: 20 }]]);
    const otherToken = await loginAs(ctx, other);
    expect((await ctx.api('POST', '/api/customer/strategies/search', { token: otherToken, body: { filter: [] } })).body.data.paging.totalCount).toBe(0);
  });
});
