import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, openPositions, startEngine, tradingCustomer, type TradingCustomer } from './fixtures';

describe('protection does not wait for other customers', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startExactSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
    // Few executions in flight at once, so the fan-out takes several rounds, as it does for thousands of customers.
    dispatcher = await startEngine(ctx, sandbox, { concurrency: 4 });
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
    sandbox.control.setFaults([{ latencyMs: 60 }]);
    const { orderId, rows } = await openPositions(ctx, strategy.url, '{"action":"open"}', 60_000);
    sandbox.control.setFaults([]);
    expect(rows.map((row) => row.state)).toEqual(customers.map(() => 'open'));

    const timings = customers.map((customer) => {
      const orders = sandbox.control.account(customer.sandbox!.uid).orders.filter((o) => o.clientOrderId.startsWith(`ct${orderId}-`));
      const entry = orders.find((o) => o.clientOrderId.endsWith('-e'))!;
      const legs = orders.filter((o) => /-tp\d$/.test(o.clientOrderId));
      expect(legs).toHaveLength(2);
      return { entryAt: entry.createdAt, protectedAt: Math.max(...legs.map((o) => o.createdAt)) };
    });
    const lastEntry = Math.max(...timings.map((t) => t.entryAt));
    const protectedBeforeLastEntry = timings.filter((t) => t.protectedAt < lastEntry).length;
    // Re-queued behind every entry, no position would have its take-profits before the last entry left.
    expect(protectedBeforeLastEntry).toBeGreaterThanOrEqual(customers.length / 2);
    // And every execution's protection followed its own fill closely, not the end of the fan-out.
    const fanOutMs = lastEntry - Math.min(...timings.map((t) => t.entryAt));
    const waits = timings.map((t) => t.protectedAt - t.entryAt).sort((a, b) => a - b);
    expect(waits[Math.floor(waits.length / 2)]!).toBeLessThan(fanOutMs);
    expect((await executionsOf(ctx, orderId)).every((row) => row.protected_at !== null)).toBe(true);
  });
});
