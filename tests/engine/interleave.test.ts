import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, fetchGate, insertStrategy, startEngine, tradingCustomer, type TradingCustomer, waitFor } from './fixtures';

describe('protection does not wait for other customers', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;
  /** Customers whose entry the test holds back: Bitget sends entries over REST, so the fetch gate sees them. */
  const heldBack = new Set<number>();
  const entries = fetchGate((url, init) => /place-order/.test(url) && [...heldBack].some((id) => String(init?.body ?? '').includes(`-${id}-e"`)));

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startExactSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
    // Few executions in flight at once, so the fan-out takes several rounds, as it does for thousands of customers.
    // Held entries outlast no exchange timeout (they would be retried, and counted again by the gate).
    dispatcher = await startEngine(ctx, sandbox, { concurrency: 4 }, 120_000, { fetchImplementation: entries.fetch });
  });
  afterAll(async () => {
    await dispatcher.stop();
    await sandbox.close();
    await ctx.close();
  });

  it("each execution's take-profit legs go out right after its own fill, while other customers' entries are still being placed", async () => {
    const strategy = await insertStrategy(ctx, {
      tp: [{ target: 1, volume: 50 }, { target: 2, volume: 50 }],
      stopLoss: { type: AmountType.Percent, amount: 1 },
      groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }],
    });
    const customers: TradingCustomer[] = [];
    for (let i = 0; i < 24; i += 1) customers.push(await tradingCustomer(ctx, sandbox, { exchange: i % 2 === 0 ? 'bybit' : 'bitget', group: CustomerGroup.Gold }));
    // The last two Bitget customers' entries are held (two of Bitget's four places): the fan-out is not over until they go.
    const last = customers.filter((c) => c.exchange === 'bitget').slice(-2);
    for (const customer of last) heldBack.add(customer.customerId);
    const answer = await ctx.api('POST', strategy.url, { payload: '{"action":"open"}', headers: { 'content-type': 'application/json' } });
    expect(answer.status).toBe(200);
    const orderId = answer.body.data.orderId as number;
    const ordersOf = (customer: TradingCustomer) => sandbox.control.account(customer.sandbox!.uid).orders.filter((o) => o.clientOrderId.startsWith(`ct${orderId}-`));
    const legsOf = (customer: TradingCustomer) => ordersOf(customer).filter((o) => /-tp\d$/.test(o.clientOrderId));
    const others = customers.filter((c) => !heldBack.has(c.customerId));
    // Re-queued behind every entry, no position would have its take-profits before the last entries left.
    await waitFor('every other position with both take-profit legs', async () => others.every((c) => legsOf(c).length === 2), 45_000);
    expect(last.map((c) => ordersOf(c))).toEqual([[], []]);
    expect(entries.held()).toBe(2);
    entries.open();
    const rows = await waitFor('every position protected', async () => {
      const list = await executionsOf(ctx, orderId);
      return list.length === customers.length && list.every((row) => row.state === 'open' && row.protected_at !== null) ? list : undefined;
    }, 60_000);
    expect(rows.map((row) => row.state)).toEqual(customers.map(() => 'open'));
    for (const customer of customers) expect(legsOf(customer)).toHaveLength(2);
  });
});
