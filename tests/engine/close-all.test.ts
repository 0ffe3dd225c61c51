import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, ExitType, OrderStatus } from '../../contract/enums';
import type { AccountState } from '../../server/sandbox/control';
import { engineSuite, executionsOf, goldPair, insertStrategy, openPositions, startEngine, stopsOf, waitFor, type TradingCustomer, staffOf } from './fixtures';

/**
 * Close all (issue 29) against the sandbox: a strategy's, a customer's and the platform's close-all close
 * every live position it covers on the exchange, and nothing else; each close is audited as by an admin;
 * the progress counts what is closed, and on a book that fills nothing the positions keep their stops
 * until liquidity is back. What is asserted is the sandbox's own state, read back.
 */
describe('close all: a strategy, a customer, the platform', () => {
  const suite = engineSuite(startEngine);
  const staff = staffOf(suite);

  beforeAll(async () => {
    suite.sandbox.control.setPrice('ETHUSDT', 3000);
  });

  const stateOf = (customer: TradingCustomer): AccountState => suite.sandbox.control.account(customer.sandbox!.uid);
  const sizeOf = (customer: TradingCustomer, symbol: string) => stateOf(customer).positions.find((p) => p.symbol === symbol)?.size ?? 0;
  const liveOrders = (customer: TradingCustomer, symbol: string) =>
    stateOf(customer).orders.filter((o) => o.symbol === symbol && ['new', 'untriggered', 'partially_filled'].includes(o.status));
  const strategyOn = (symbol: 'BTCUSDT' | 'ETHUSDT') =>
    insertStrategy(suite.ctx, {
      symbol,
      tp: [{ target: 5, volume: 100 }],
      stopLoss: { type: AmountType.Percent, amount: 2 },
      groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: symbol === 'BTCUSDT' ? 0.01 : 0.5 }],
    });
  /** Both customers of a fresh Gold pair hold a BTCUSDT position of one strategy and an ETHUSDT position of another. */
  async function twoStrategiesOpen() {
    const customers = await goldPair(suite.ctx, suite.sandbox);
    const btc = await strategyOn('BTCUSDT');
    const eth = await strategyOn('ETHUSDT');
    const btcOrder = await openPositions(suite.ctx, btc.url);
    const ethOrder = await openPositions(suite.ctx, eth.url);
    for (const customer of customers) expect([sizeOf(customer, 'BTCUSDT'), sizeOf(customer, 'ETHUSDT')]).toEqual([0.01, 0.5]);
    return { customers, btc, eth, btcOrderId: btcOrder.orderId, ethOrderId: ethOrder.orderId };
  }
  /** Waits until the latest close-all read at `path` has every position it asked for closed. */
  const progressDone = (path: string) =>
    waitFor(`${path} done`, async () => {
      const last = (await suite.ctx.api('GET', path, { token: staff.employee.token })).body.data.last;
      return last && last.closed === last.positions ? last : undefined;
    });
  async function exitAuditsOf(orderId: number): Promise<Array<[number, string, number | null]>> {
    const rows = await suite.ctx.deps.db.execute<{ customer_id: number; message: string; exit_type: number | null }>(
      sql`select customer_id, message, exit_type from exit_audits where order_id = ${orderId} order by customer_id, id`,
    );
    return rows.rows.map((row) => [row.customer_id, row.message, row.exit_type]);
  }
  const orderStatus = async (orderId: number) =>
    Number((await suite.ctx.deps.db.execute<{ status: number }>(sql`select status from orders where id = ${orderId}`)).rows[0]!.status);

  it("a strategy's close-all closes its positions on both exchanges, audits each as by admin, and leaves the other strategy's", async () => {
    const { customers, btc, btcOrderId, ethOrderId } = await twoStrategiesOpen();
    const asked = await suite.ctx.api('POST', `/api/strategy/${btc.id}/close-all`, { token: staff.admin.token });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toMatchObject({ scope: 'strategy', positions: 2 });

    expect(await progressDone(`/api/strategy/${btc.id}/close-all`)).toMatchObject({ id: asked.body.data.id, positions: 2, closed: 2 });
    for (const customer of customers) {
      expect(sizeOf(customer, 'BTCUSDT')).toBe(0);
      expect(liveOrders(customer, 'BTCUSDT')).toEqual([]);
      expect(sizeOf(customer, 'ETHUSDT')).toBe(0.5);
      expect(stopsOf(stateOf(customer), 'ETHUSDT').length).toBeGreaterThan(0);
    }
    const audits = await exitAuditsOf(btcOrderId);
    expect(audits).toEqual(
      customers.map((c) => [c.customerId, expect.stringMatching(/^Position closed by admin at market: 0\.01 BTCUSDT at /), ExitType.ByAdmin]),
    );
    await waitFor('the order settled', async () => (await orderStatus(btcOrderId)) !== OrderStatus.Active);
    expect(await orderStatus(ethOrderId)).toBe(OrderStatus.Active);
  });

  it("a customer's close-all closes that customer's positions of every strategy and no one else's", async () => {
    const { customers } = await twoStrategiesOpen();
    const [closed, kept] = customers as [TradingCustomer, TradingCustomer];
    const asked = await suite.ctx.api('POST', `/api/customer/${closed.customerId}/close-all`, { token: staff.admin.token });
    expect(asked.body.data).toMatchObject({ scope: 'customer', positions: 2 });
    await progressDone(`/api/customer/${closed.customerId}/close-all`);
    expect([sizeOf(closed, 'BTCUSDT'), sizeOf(closed, 'ETHUSDT')]).toEqual([0, 0]);
    expect([...liveOrders(closed, 'BTCUSDT'), ...liveOrders(closed, 'ETHUSDT')]).toEqual([]);
    expect([sizeOf(kept, 'BTCUSDT'), sizeOf(kept, 'ETHUSDT')]).toEqual([0.01, 0.5]);
    const other = await suite.ctx.api('GET', `/api/customer/${kept.customerId}/close-all`, { token: staff.employee.token });
    expect(other.body.data).toEqual({ last: null });
  });

  it('on a book that fills nothing, the progress shows none closed and every position still protected; once liquidity is back, all closed', async () => {
    const { customers, btc, btcOrderId } = await twoStrategiesOpen();
    suite.sandbox.control.setBook({ levels: 1, levelSize: 0.0001, spread: 0, step: 0, refillMs: 1e9 }, 'BTCUSDT');
    try {
      const asked = await suite.ctx.api('POST', `/api/strategy/${btc.id}/close-all`, { token: staff.admin.token });
      expect(asked.body.data).toMatchObject({ positions: 2, closed: 0 });
      // Each close was sent and came back unfilled (the engine's close legs): the positions are still open, with their stops.
      await waitFor('a close sent for each customer', async () => (await executionsOf(suite.ctx, btcOrderId)).every((row) => row.legs.some((leg) => leg.kind === 'close')));
      const progress = (await suite.ctx.api('GET', `/api/strategy/${btc.id}/close-all`, { token: staff.employee.token })).body.data.last;
      expect(progress).toMatchObject({ positions: 2, closed: 0, protected: 2 });
      for (const customer of customers) {
        expect(sizeOf(customer, 'BTCUSDT')).toBe(0.01);
        expect(stopsOf(stateOf(customer), 'BTCUSDT').length).toBeGreaterThan(0);
      }
    } finally {
      suite.sandbox.control.setBook({ levels: 1, levelNotional: 1e12, spread: 0, step: 0, refillMs: 1 }, 'BTCUSDT');
    }
    await progressDone(`/api/strategy/${btc.id}/close-all`);
    for (const customer of customers) expect([sizeOf(customer, 'BTCUSDT'), liveOrders(customer, 'BTCUSDT')]).toEqual([0, []]);
  });

  it("the platform's close-all needs the mailed code, then closes every live position there is", async () => {
    const { customers } = await twoStrategiesOpen();
    expect((await suite.ctx.api('POST', '/api/platform/close-all', { token: staff.admin.token, body: { code: '000000' } })).status).toBe(400);
    expect((await suite.ctx.api('POST', '/api/platform/close-all', { token: staff.employee.token, body: { code: '000000' } })).status).toBe(403);
    for (const customer of customers) expect(sizeOf(customer, 'ETHUSDT')).toBe(0.5);

    suite.ctx.clock.advance(31_000);
    expect((await suite.ctx.api('POST', '/api/platform/pause/code', { token: staff.admin.token })).status).toBe(200);
    const asked = await suite.ctx.api('POST', '/api/platform/close-all', { token: staff.admin.token, body: { code: suite.ctx.lastCode(staff.admin.email) } });
    expect(asked.status).toBe(200);
    const live = await suite.ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from executions where close_all_id = ${asked.body.data.id}`);
    expect(asked.body.data.positions).toBe(live.rows[0]!.n);
    expect(asked.body.data.positions).toBeGreaterThanOrEqual(4);

    await progressDone('/api/platform/close-all');
    for (const customer of customers) {
      expect([sizeOf(customer, 'BTCUSDT'), sizeOf(customer, 'ETHUSDT')]).toEqual([0, 0]);
      expect([...liveOrders(customer, 'BTCUSDT'), ...liveOrders(customer, 'ETHUSDT')]).toEqual([]);
    }
    const stillLive = await suite.ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from executions where state in ('pending', 'open')`);
    expect(stillLive.rows[0]!.n).toBe(0);
  });
});
