import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, ExitType } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import type { AccountState } from '../../server/sandbox/control';
import { bitgetClient, bitgetRaw, bybitClient, bybitRaw, startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { auditsOf, executionsOf, insertStrategy, openPositions, startEngine, stopsOf, tradingCustomer, waitFor, type TradingCustomer } from './fixtures';

/**
 * LIVE-FIDELITY D3: what the exchange does to a position (a stop or take-profit fill, a close by hand)
 * is known when it happens, from the account's private stream, and the execution's other legs are
 * cancelled then, not at the next periodic sync (none within this file's run here): stale legs never wait to cut a new position.
 */
describe('private stream events drive the engine (D3)', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;
  /** No periodic sync during the file (its first is 10 minutes away), so only a pushed event can make the engine act; the deadline only ends a failing wait. */
  const NO_SYNC_MS = 600_000;
  const EVENT_DRIVEN_MS = 30_000;

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startExactSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
    dispatcher = await startEngine(ctx, sandbox, { syncIntervalMs: NO_SYNC_MS });
  });
  afterAll(async () => {
    await dispatcher.stop();
    await sandbox.close();
    await ctx.close();
  });

  async function pair(): Promise<TradingCustomer[]> {
    await ctx.deps.db.execute(sql`update customers set "group" = ${CustomerGroup.Occasion} where "group" = ${CustomerGroup.Gold}`);
    return [await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold }), await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Gold })];
  }
  const stateOf = (customer: TradingCustomer): AccountState => sandbox.control.account(customer.sandbox!.uid);
  const liveOrders = (customer: TradingCustomer) => stateOf(customer).orders.filter((o) => ['new', 'untriggered', 'partially_filled'].includes(o.status));
  const ladder = () =>
    insertStrategy(ctx, {
      tp: [{ target: 2, volume: 40 }, { target: 4, volume: 30 }, { target: 6, volume: 30 }],
      stopLoss: { type: AmountType.Percent, amount: 1 },
      groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }],
    });
  /** Waits until the sandbox's account streams are subscribed (the engine warmed them), so pushes reach it. */
  const streamed = (customer: TradingCustomer) => waitFor('stream subscribed', async () => sandbox.control.streamSubscriptions(customer.sandbox!.uid).length > 0);

  it('a close by hand on the exchange: the legs are cancelled and the exit booked within seconds', async () => {
    const customers = await pair();
    const { orderId } = await openPositions(ctx, (await ladder()).url);
    for (const customer of customers) {
      await streamed(customer);
      expect(liveOrders(customer).length).toBeGreaterThan(0);
    }
    await bybitClient(sandbox.url, customers[0]!.sandbox!).createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, { reduceOnly: true });
    await bitgetClient(sandbox.url, customers[1]!.sandbox!).createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, { reduceOnly: true, marginMode: 'cross' });
    for (const customer of customers) await waitFor(`${customer.exchange} legs cancelled`, async () => liveOrders(customer).length === 0, EVENT_DRIVEN_MS);
    await waitFor('executions closed', async () => (await executionsOf(ctx, orderId)).every((row) => row.state === 'closed'), EVENT_DRIVEN_MS);
    const audits = await auditsOf(ctx, 'exit_audits', orderId);
    expect(audits.map((a) => a.exit_type)).toEqual([ExitType.Customer, ExitType.Customer]);
  });

  it('the customer cancels the stop on the exchange: a new one is placed within seconds, and staff are told', async () => {
    const customers = await pair();
    const { orderId } = await openPositions(ctx, (await ladder()).url);
    for (const customer of customers) {
      await streamed(customer);
      const stop = stateOf(customer).orders.find((o) => ['new', 'untriggered'].includes(o.status) && (o.labels.tpsl === 'sl' || /-sl(r\d+)?$/.test(o.clientOrderId)))!;
      expect(stop).toBeDefined();
      const cancel =
        customer.exchange === 'bybit'
          ? await bybitRaw(sandbox.url, customer.sandbox!, 'POST', '/v5/order/cancel', { category: 'linear', symbol: 'BTCUSDT', orderId: stop.id })
          : await bitgetRaw(sandbox.url, customer.sandbox!, 'POST', '/api/v2/mix/order/cancel-plan-order', { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT', orderIdList: [{ orderId: stop.id }], planType: stop.labels.planType ?? 'loss_plan' });
      expect(cancel.status).toBe(200);
      await waitFor(`${customer.exchange} stop back`, async () => stopsOf(stateOf(customer)).length > 0 && stopsOf(stateOf(customer)).every((s) => s.clientOrderId !== stop.clientOrderId || stop.clientOrderId === ''), EVENT_DRIVEN_MS);
      const stops = stopsOf(stateOf(customer));
      expect(stops.reduce((sum, s) => sum + s.qty, 0)).toBe(0.01);
      expect(stops.map((s) => s.price)).toEqual([59400]);
    }
    // The audit is written once the new stop is in.
    const audits = await waitFor('both repairs audited', async () => {
      const rows = await auditsOf(ctx, 'exit_audits', orderId);
      return rows.length >= 2 ? rows : undefined;
    });
    expect(audits.map((a) => a.message)).toEqual(customers.map(() => expect.stringMatching(/^Stop loss at 59400 .*was no longer on the exchange \(cancelled outside the platform\): a new one was placed at 59400 for 0\.01$/)));
    expect((await executionsOf(ctx, orderId)).map((row) => row.state)).toEqual(['open', 'open']);
  });

  it('the stop fills on the exchange: the take-profit legs go at once', async () => {
    const customers = await pair();
    const { orderId } = await openPositions(ctx, (await ladder()).url);
    for (const customer of customers) await streamed(customer);
    sandbox.control.setPrice('BTCUSDT', 59300);
    for (const customer of customers) await waitFor(`${customer.exchange} flat and no legs left`, async () => liveOrders(customer).length === 0 && !stateOf(customer).positions.some((p) => p.size > 0), EVENT_DRIVEN_MS);
    await waitFor('executions closed', async () => (await executionsOf(ctx, orderId)).every((row) => row.state === 'closed'), EVENT_DRIVEN_MS);
    sandbox.control.setPrice('BTCUSDT', 60000);
  });
});
