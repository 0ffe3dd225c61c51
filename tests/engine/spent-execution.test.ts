import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { bybitClient, startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, openPositions, startEngine, syncNow, tradingCustomer, waitFor } from './fixtures';

/**
 * An execution whose whole size is booked as closed while the exchange holds nothing of it is over,
 * whatever path booked it (the chaos run's seed 23 ended with one left open for ever: the position
 * flat, nothing "short", so no sync ever closed it). The next check closes it and cancels what is left.
 */
describe('an execution with nothing left is closed by its next check', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startExactSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
    dispatcher = await startEngine(ctx, sandbox);
  });
  afterAll(async () => {
    await dispatcher.stop();
    await sandbox.close();
    await ctx.close();
  });

  it('booked whole and flat on the exchange: closed, its legs cancelled', async () => {
    const customer = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold });
    const strategy = await insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 2 }, groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    const { orderId } = await openPositions(ctx, strategy.url);
    // Its size booked as closed (as a crash between booking and closing would leave it), and the position closed.
    await ctx.deps.db.execute(sql`update executions set closed_qty = quantity where order_id = ${orderId}`);
    await bybitClient(sandbox.url, customer.sandbox!).createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, { reduceOnly: true });

    await syncNow(ctx, dispatcher);
    await waitFor('the execution closed', async () => (await executionsOf(ctx, orderId))[0]?.state === 'closed');
    const live = sandbox.control.account(customer.sandbox!.uid).orders.filter((o) => ['new', 'untriggered', 'partiallyFilled'].includes(o.status));
    expect(live).toEqual([]);
  });
});
