import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, OrderEntryType, OrderStatus } from '../../contract/enums';
import { entryAudits, executions, orders, strategies } from '../../server/db/schema/index';
import { searchAudits } from '../../server/modules/audits/search';
import { searchOrders } from '../../server/modules/orders/repository';
import { createPerson, type Person } from '../helpers/fixtures';
import { createTestContext, otherConnection, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let customer: Person;
let orderId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  customer = await createPerson(ctx, AccountType.Customer, { firstName: 'Cara', lastName: 'Customer' });
  await ctx.deps.db.insert(strategies).values({
    id: 'BTC1', symbol: 'BTCUSDT', entryDirection: 1, leverage: 5, positionMode: 1, takeProfitType: 3, takeProfitMode: 1, tp1TargetLevel: '1', tp1CloseVolume: '100', stopLossType: 3, stopLossAmount: '1',
  });
  const [order] = await ctx.deps.db
    .insert(orders)
    .values({ strategyId: 'BTC1', side: 1, status: OrderStatus.Active, entryType: OrderEntryType.Api })
    .returning({ id: orders.id });
  orderId = order!.id;
  await ctx.deps.db.insert(executions).values({ orderId, customerId: customer.roleId, clientOrderId: 'o-cache-1', deadlineAt: new Date(), quantity: '0.002', entryPrice: '60000', state: 'open' });
  await ctx.deps.db.insert(entryAudits).values({ orderId, customerId: customer.roleId, strategyId: 'BTC1', entryType: OrderEntryType.Api, message: 'entered' });
});
afterAll(async () => ctx?.close());

const page = { pageIndex: 0, pageSize: 50 };
const orderSearch = () => searchOrders(ctx.deps.db, [], page);
const entrySearch = () => searchAudits(ctx.deps.db, 'entry', { filter: [], ...page });
const orderRow = async () => (await orderSearch()).data.find((row) => row.id === orderId)!;


describe('order and audit search answers are reused only while nothing they show has changed', () => {
  it('a second search reuses the answer of the first; a change elsewhere keeps it', async () => {
    const orders1 = await orderSearch();
    const entries1 = await entrySearch();
    await ctx.deps.db.execute(sql`update egress_bans set until = until`);
    expect(await orderSearch()).toBe(orders1);
    expect(await entrySearch()).toBe(entries1);
  });

  it('an execution asked to close shows its order closing at once', async () => {
    expect((await orderRow()).closing).toBe(false);
    await ctx.deps.db.execute(sql`update executions set close_requested_at = now() where order_id = ${orderId}`);
    expect((await orderRow()).closing).toBe(true);
  });

  it("a strategy's new symbol shows in both searches at once", async () => {
    await orderSearch();
    await entrySearch();
    await ctx.deps.db.execute(sql`update strategies set symbol = 'XBTUSDT' where id = 'BTC1'`);
    expect((await orderRow()).strategy.symbol).toBe('XBTUSDT');
    expect((await entrySearch()).data[0]?.strategy?.symbol).toBe('XBTUSDT');
  });

  it("an audit row shows its customer's new name at once (the customer lists' counter)", async () => {
    await entrySearch();
    await ctx.deps.db.execute(sql`update accounts set first_name = 'Carla' where id = (select account_id from customers where id = ${customer.roleId})`);
    expect((await entrySearch()).data[0]?.customer?.firstName).toBe('Carla');
  });

  it('an audit added by another connection is listed and counted once committed, not while in flight', async () => {
    const before = await entrySearch();
    const writer = await otherConnection(ctx.database);
    try {
      await writer.query('begin');
      await writer.query(`insert into entry_audits (order_id, strategy_id, entry_type, message) values ($1, 'BTC1', 2, 'in flight')`, [orderId]);
      expect((await entrySearch()).paging.totalCount).toBe(before.paging.totalCount);
      await writer.query('commit');
    } finally {
      await writer.end();
    }
    const after = await entrySearch();
    expect(after.paging.totalCount).toBe(before.paging.totalCount + 1);
    expect(after.data.map((row) => row.message)).toContain('in flight');
  });

  it('an order search read while its order changes elsewhere is not kept: the change shows once committed', async () => {
    await orderSearch();
    const writer = await otherConnection(ctx.database);
    try {
      await writer.query('begin');
      await writer.query('update orders set status = $1 where id = $2', [OrderStatus.Win, orderId]);
      expect((await orderRow()).status).toBe(OrderStatus.Active);
      await writer.query('commit');
    } finally {
      await writer.end();
    }
    expect((await orderRow()).status).toBe(OrderStatus.Win);
  });
});
