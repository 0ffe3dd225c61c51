import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { entryStopQty, executionsOf, insertStrategy, openPositions, startEngine, stopsOf, tradingCustomer, type TradingCustomer } from './fixtures';

/**
 * LIVE-FIDELITY D8: the exchanges refuse a market order above the instrument's maximum (BTCUSDT 119) and a
 * position above the risk tier that allows its leverage. The engine sizes within both, so the entry fills
 * (capped) instead of being refused, and its stop covers what was filled.
 */
describe('entries sized within the instrument and risk-tier limits (D8)', () => {
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

  const positionOf = (customer: TradingCustomer) => sandbox.control.account(customer.sandbox!.uid).positions.find((p) => p.symbol === 'BTCUSDT' && p.size > 0);
  const customersOf = (group: number) =>
    Promise.all((['bybit', 'bitget'] as const).map((exchange) => tradingCustomer(ctx, sandbox, { exchange, group, balance: 2_000_000 })));

  it('120 BTC at 10x is placed as 119 BTC, the largest market order, on both exchanges', async () => {
    const customers = await customersOf(CustomerGroup.Gold);
    const strategy = await insertStrategy(ctx, { leverage: 10, tp: [{ target: 5, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 2 }, groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 120 }] });
    const { orderId } = await openPositions(ctx, strategy.url);

    expect((await executionsOf(ctx, orderId)).map((row) => row.state)).toEqual(['open', 'open']);
    for (const customer of customers) {
      expect(positionOf(customer)?.size).toBe(119);
      expect(stopsOf(sandbox.control.account(customer.sandbox!.uid)).map((stop) => [stop.price, stop.qty])).toEqual([[58800, entryStopQty(customer.exchange, 119)]]);
    }
  });

  it('$50,000 at 100x is capped at the value of the 100x tier (Bybit 2,000,000 USDT, Bitget 150,000 USDT)', async () => {
    const [bybit, bitget] = await customersOf(CustomerGroup.Vip);
    const strategy = await insertStrategy(ctx, { leverage: 100, tp: [{ target: 1, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 0.3 }, groups: [{ group: CustomerGroup.Vip, investType: AmountType.Dollar, amount: 50_000 }] });
    const { orderId } = await openPositions(ctx, strategy.url);

    expect((await executionsOf(ctx, orderId)).map((row) => row.state)).toEqual(['open', 'open']);
    expect(positionOf(bybit!)).toMatchObject({ size: 33.333, leverage: { long: 100, short: 100 } });
    expect(positionOf(bitget!)).toMatchObject({ size: 2.5 });
  });
});
