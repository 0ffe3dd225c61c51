import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, openPositions, startEngine, tradingCustomer } from './fixtures';

/**
 * LIVE-FIDELITY D6: Bybit acknowledges a create asynchronously, so right after an answer that never came
 * (a timeout), the retry is refused as a duplicate client id while order queries do not show the order yet.
 * The engine looks again with backoff and takes the order it finds: one entry, open and protected.
 */
const EXCHANGE_TIMEOUT_MS = 8_000;

describe('a duplicate client id the exchange does not show yet (D6)', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startExactSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
    // Generous for every other request on a loaded machine; the create below is never answered at all.
    dispatcher = await startEngine(ctx, sandbox, {}, EXCHANGE_TIMEOUT_MS);
  });
  afterAll(async () => {
    await dispatcher.stop();
    await sandbox.close();
    await ctx.close();
  });

  it('the entry whose answer was lost is found after its retry is called a duplicate, and is placed once', async () => {
    const customer = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold });
    const strategy = await insertStrategy(ctx, { leverage: 10, tp: [{ target: 5, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 1 }, groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    // The entry is applied and never answered (our timeout ends the wait), and invisible to order queries for
    // well past that timeout: the retry is a duplicate while lookups still miss it.
    sandbox.control.setFaults([{ exchange: 'bybit', route: '/v5/order/create', account: customer.sandbox!.uid, timeoutShare: 1, hideOrderMs: EXCHANGE_TIMEOUT_MS + 6_000, remaining: 1 }]);
    // Its private stream silent (which would show the order at once), only the order queries can find it.
    sandbox.control.setStreamFaults([{ account: customer.sandbox!.uid, stall: true }]);
    const { orderId } = await openPositions(ctx, strategy.url, '{"action":"open"}', 90_000).finally(() => sandbox.control.clearStreamFaults());

    const [row] = await executionsOf(ctx, orderId);
    expect([row!.state, Number(row!.quantity), row!.protected_at !== null]).toEqual(['open', 0.01, true]);
    const account = sandbox.control.account(customer.sandbox!.uid);
    expect(account.orders.filter((order) => order.clientOrderId === `ct${orderId}-${customer.customerId}-e`)).toHaveLength(1);
    expect(account.positions.find((p) => p.size > 0)?.size).toBe(0.01);
  });
});
