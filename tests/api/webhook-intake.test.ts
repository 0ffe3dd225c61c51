import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, OrderStatus } from '../../contract/enums';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, tradingCustomer } from '../engine/fixtures';

const post = (ctx: TestContext, url: string, payload: string) => ctx.api('POST', url, { payload, headers: { 'content-type': 'application/json' } });

async function ordersOf(ctx: TestContext, strategyId: string): Promise<Array<{ id: number; status: number; closed: boolean }>> {
  const result = await ctx.deps.db.execute<{ id: number; status: number; closed: boolean }>(
    sql`select id, status, closed_at is not null as closed from orders where strategy_id = ${strategyId} order by id`,
  );
  return result.rows.map((row) => ({ id: Number(row.id), status: Number(row.status), closed: Boolean(row.closed) }));
}

/**
 * An entry for a strategy whose last alert found no eligible customer is one statement committed on
 * its own (`receiveAlert`); these pin that it keeps the transaction's answers and rows.
 */
describe('webhook intake of strategies without customers', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('settles each alert as an Order without executions, makes one Order of racing copies, and queues executions once a customer turns up', async () => {
    const groups = [{ group: CustomerGroup.Occasion, investType: AmountType.Quantity, amount: 0.01 }];
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });

    const first = await post(ctx, strategy.url, '{"action":"open","alert_id":"empty-1"}');
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ action: 'open', duplicate: false, executions: 0, skipped: 0, closing: 0 });
    const [settled] = await ordersOf(ctx, strategy.id);
    expect(settled).toEqual({ id: first.body.data.orderId, status: OrderStatus.Loss, closed: true });

    const raced = await Promise.all(Array.from({ length: 6 }, () => post(ctx, strategy.url, '{"action":"open","alert_id":"empty-race"}')));
    expect(raced.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const fresh = raced.filter((answer) => !answer.body.data.duplicate);
    expect(fresh).toHaveLength(1);
    expect(new Set(raced.map((answer) => answer.body.data.signalId)).size).toBe(1);
    expect(raced.filter((answer) => answer.body.data.duplicate).every((answer) => answer.body.data.orderId === null)).toBe(true);
    expect((await ordersOf(ctx, strategy.id)).map((order) => order.id)).toEqual([first.body.data.orderId, fresh[0]!.body.data.orderId]);

    const late = await post(ctx, strategy.url, `{"action":"open","alert_id":"empty-late","timestamp":${ctx.clock.now().getTime() - 3_600_000}}`);
    expect(late.body.data).toMatchObject({ duplicate: false, orderId: null, executions: 0 });
    const audit = await ctx.deps.db.execute<{ message: string }>(sql`select message from entry_audits where strategy_id = ${strategy.id} order by id desc limit 1`);
    expect(audit.rows[0]?.message).toMatch(/^Webhook alert of .* arrived more than \d+ s late; no order was placed$/);
    expect(await ordersOf(ctx, strategy.id)).toHaveLength(2);

    const customer = await tradingCustomer(ctx, null, { exchange: 'bybit', group: CustomerGroup.Occasion });
    const joined = await post(ctx, strategy.url, '{"action":"open","alert_id":"with-customer"}');
    expect(joined.body.data).toMatchObject({ duplicate: false, executions: 1, skipped: 0 });
    const rows = await executionsOf(ctx, joined.body.data.orderId);
    expect(rows.map((row) => [row.customer_id, row.state, row.client_order_id])).toEqual([[customer.customerId, 'pending', `ct${joined.body.data.orderId}-${customer.customerId}-e`]]);
    expect((await ordersOf(ctx, strategy.id)).at(-1)).toEqual({ id: joined.body.data.orderId, status: OrderStatus.Active, closed: false });
    const signals = await ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from signals where strategy_id = ${strategy.id}`);
    expect(Number(signals.rows[0]!.n)).toBe(4);
  });
});
