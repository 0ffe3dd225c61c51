import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, PositionMode } from '../../contract/enums';
import { NOTIFICATION_CHANNEL } from '../../server/lib/notify';
import { startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { auditsOf, executionsOf, insertStrategy, openPositions, startEngine, tradingCustomer, type TradingCustomer, waitFor } from './fixtures';

describe('failures: bad keys, small sizes, hedge mode, injected 5xx, timeouts and rate limits', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;
  let listener: pg.Client;
  const notifications: Array<{ type: number; message: string }> = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startSandbox({ randomWalk: false, seed: 7 });
    sandbox.control.setPrice('BTCUSDT', 60000);
    dispatcher = await startEngine(ctx, sandbox, {}, 1_000);
    listener = new pg.Client({ connectionString: ctx.database.url });
    await listener.connect();
    listener.on('notification', (message) => notifications.push(JSON.parse(message.payload ?? '{}')));
    await listener.query(`listen ${NOTIFICATION_CHANNEL}`);
  });
  afterAll(async () => {
    await listener.end();
    await dispatcher.stop();
    // The sandbox's close waits for keep-alive sockets of requests it answered late (timeout faults).
    await Promise.race([sandbox.close(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
    await ctx.close();
  });

  it('hedge mode entries; a bad key and a below-minimum size are audited (websocket type 1) and leave nothing on the exchange', async () => {
    const strategy = await insertStrategy(ctx, {
      positionMode: PositionMode.Hedge,
      tp: [{ target: 2, volume: 100 }],
      groups: [
        { group: CustomerGroup.Gold, investType: AmountType.Dollar, amount: 100 },
        { group: CustomerGroup.Vip, investType: AmountType.Quantity, amount: 0.0004 },
      ],
    });
    const good = [await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold }), await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Gold })];
    const badKey = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold, badKey: true });
    const tiny = await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Vip });
    notifications.length = 0;
    const { orderId, rows } = await openPositions(ctx, strategy.url, '{"action":"open","ticker":"BTCUSDT.P"}');
    const byCustomer = (c: TradingCustomer) => rows.find((row) => row.customer_id === c.customerId)!;
    expect(good.map((c) => byCustomer(c).state)).toEqual(['open', 'open']);
    for (const customer of good) {
      const state = sandbox.control.account(customer.sandbox!.uid);
      expect(state.positions.filter((p) => p.size > 0).map((p) => [p.side, p.size, p.positionIdx])).toEqual([['long', 0.016, customer.exchange === 'bybit' ? 1 : expect.anything()]]);
    }
    expect(byCustomer(badKey).state).toBe('failed');
    expect(byCustomer(tiny).state).toBe('skipped');
    expect(sandbox.control.account(badKey.sandbox!.uid).orders).toEqual([]);
    expect(sandbox.control.account(tiny.sandbox!.uid).orders).toEqual([]);
    const audits = await auditsOf(ctx, 'entry_audits', orderId);
    expect(audits.find((a) => a.customer_id === tiny.customerId)?.message).toBe(
      'Order size 0 BTCUSDT is below the exchange minimum of 0.001 (invest 0.0004, leverage 10, price 60000)',
    );
    expect(audits.find((a) => a.customer_id === badKey.customerId)?.message).toMatch(/key/i);
    // The bad key's and the small size's audits notify staff (websocket type 1).
    await waitFor('the audits notified', async () => notifications.filter((n) => n.type === 1).length >= 2);
  });

  it('10% injected 5xx and timeouts plus rate limits: every customer ends with exactly one position or an audit, never two', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 2, volume: 50 }, { target: 3, volume: 50 }], groups: [{ group: CustomerGroup.Occasion, investType: AmountType.Quantity, amount: 0.01 }] });
    const customers: TradingCustomer[] = [];
    for (let i = 0; i < 8; i += 1) customers.push(await tradingCustomer(ctx, sandbox, { exchange: i % 2 === 0 ? 'bybit' : 'bitget', group: CustomerGroup.Occasion }));
    sandbox.control.setFaults([
      { errorShare: 0.05, errorStatus: 502, timeoutShare: 0.05, timeoutMs: 1_500 },
      { route: '/v5/order/create', rateLimitShare: 1, remaining: 2 },
      { route: '/api/v2/mix/order/place-order', rateLimitShare: 1, remaining: 2 },
    ]);
    notifications.length = 0;
    const { orderId, rows } = await openPositions(ctx, strategy.url, '{"action":"open","alert_id":"faulty"}', 45_000);
    sandbox.control.setFaults([]);
    const audits = await auditsOf(ctx, 'entry_audits', orderId);
    for (const customer of customers) {
      const row = rows.find((r) => r.customer_id === customer.customerId)!;
      const state = sandbox.control.account(customer.sandbox!.uid);
      const entries = state.orders.filter((o) => o.clientOrderId === row.client_order_id);
      const size = state.positions.filter((p) => p.size > 0).reduce((sum, p) => sum + p.size, 0);
      if (row.state === 'open') {
        expect([entries.length, size]).toEqual([1, 0.01]);
      } else {
        expect(row.state).toBe('failed');
        expect(entries.filter((o) => o.status === 'filled')).toHaveLength(0);
        expect(audits.some((a) => a.customer_id === customer.customerId)).toBe(true);
      }
      for (const leg of row.legs) expect(state.orders.filter((o) => o.clientOrderId === leg.clientOrderId).length).toBeLessThanOrEqual(1);
    }
    const counters = sandbox.control.counters();
    // The faults were met: Bitget's first two entries (always REST) were refused with a rate limit, and the
    // checks above show how every customer ended. Whether a refusal or a 5xx cost an execution a second
    // attempt, or was sent again within its first, is the draw's (an 'attempts > 1' check failed in S10-U4).
    expect(counters.rateLimitRejections.forced).toBeGreaterThanOrEqual(2);
    if (rows.some((r) => r.state === 'failed')) expect(notifications.some((n) => n.type === 1)).toBe(true);
    expect((await executionsOf(ctx, orderId)).filter((r) => r.state === 'open')).toHaveLength(rows.filter((r) => r.state === 'open').length);
  });
});
