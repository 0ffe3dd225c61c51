import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, TakeProfitMode } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { auditsOf, executionsOf, insertStrategy, openPositions, startEngine, stopsOf, tradingCustomer, waitFor } from './fixtures';

/**
 * Table D rows the exchange decides on its own terms: a triggered stop the margin cannot carry (D4), and
 * requests signed against the exchange's clock, not ours (D10).
 */
describe('the exchange\'s terms: margin at trigger (D4) and its clock (D10)', () => {
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

  const strategyFor = (group: number) =>
    insertStrategy(ctx, { leverage: 10, tp: [{ target: 5, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 1 }, groups: [{ group, investType: AmountType.Quantity, amount: 0.01 }] });

  it('D4: a Bybit stop that triggers while the account is short of margin still closes the position (closeOnTrigger)', async () => {
    const customer = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold });
    const strategy = await insertStrategy(ctx, {
      leverage: 10,
      takeProfitMode: TakeProfitMode.Partial,
      tp: [{ target: 1, volume: 50 }, { target: 5, volume: 50 }],
      stopLoss: { type: AmountType.Percent, amount: 1 },
      groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }],
    });
    const { orderId } = await openPositions(ctx, strategy.url);
    const account = () => sandbox.control.account(customer.sandbox!.uid);
    // TP1 fills: the engine's own conditional stop now covers the 0.005 left.
    sandbox.control.setPrice('BTCUSDT', 60600);
    await waitFor('the stop resized as a conditional order', async () => stopsOf(account()).some((stop) => stop.clientOrderId.endsWith('-sl') && stop.qty === 0.005));
    sandbox.control.updateAccount(customer.sandbox!.uid, { marginShort: true });

    sandbox.control.setPrice('BTCUSDT', 59300);
    expect(account().positions.filter((p) => p.size > 0)).toEqual([]);
    // Booked from the private stream's fill, or at the latest by the position sync (60 s in these tests).
    await waitFor('the stop booked', async () => (await executionsOf(ctx, orderId))[0]?.state === 'closed', 90_000);
    const audits = await auditsOf(ctx, 'exit_audits', orderId);
    expect(audits.at(-1)!.message).toMatch(/^Stop loss at 59400 closed 0\.005 BTCUSDT/);
    sandbox.control.setPrice('BTCUSDT', 60000);
  }, 150_000);

  it('D10: with the exchange\'s clock 5 s behind ours, entries and their protection are signed on its time and accepted', async () => {
    sandbox.control.setClockOffset(-5_000);
    try {
      const customer = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Vip });
      const { orderId } = await openPositions(ctx, (await strategyFor(CustomerGroup.Vip)).url);
      const [row] = await executionsOf(ctx, orderId);
      expect([row!.state, row!.protected_at !== null]).toEqual(['open', true]);
      expect(sandbox.control.account(customer.sandbox!.uid).positions.find((p) => p.size > 0)?.size).toBe(0.01);
    } finally {
      sandbox.control.setClockOffset(0);
    }
  });
});
