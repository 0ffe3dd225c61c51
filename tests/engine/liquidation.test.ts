import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { auditsOf, executionsOf, feesPaid, insertStrategy, netPnlText, openPositions, startEngine, tradingCustomer, waitFor } from './fixtures';

/**
 * LIVE-FIDELITY D7: positions are liquidated at their liquidation price. A stop beyond it never protects,
 * so such an entry is refused; a liquidation is booked as one, at the exchange's takeover price, not as a
 * close "by the customer".
 */
describe('stops and liquidations (D7)', () => {
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

  it('an entry whose stop lies beyond its liquidation price is skipped with the reason, and nothing is opened', async () => {
    const customers = await Promise.all((['bybit', 'bitget'] as const).map((exchange) => tradingCustomer(ctx, sandbox, { exchange, group: CustomerGroup.Gold })));
    const strategy = await insertStrategy(ctx, { leverage: 100, tp: [{ target: 5, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 2 }, groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    const { orderId } = await openPositions(ctx, strategy.url);

    expect((await executionsOf(ctx, orderId)).map((row) => row.state)).toEqual(['skipped', 'skipped']);
    // Bybit's 100x tier keeps 0.5% as maintenance margin, Bitget's 0.4%: liquidation 0.5% or 0.6% below the entry.
    expect((await auditsOf(ctx, 'entry_audits', orderId)).map((audit) => audit.message).sort()).toEqual(
      ['59640', '59700'].map((about) => `The stop loss at 58800 is beyond the liquidation price (about ${about} at 100x on isolated margin): the position would be liquidated before its stop, so this entry was skipped`),
    );
    for (const customer of customers) expect(sandbox.control.account(customer.sandbox!.uid).positions.filter((p) => p.size > 0)).toEqual([]);
  });

  it('a position the exchange liquidates is booked as a liquidation at the takeover price, and its legs are gone', async () => {
    // 20 USDT backs a 0.01 BTC cross position at 50x: the mark at 57000 liquidates it while the last price
    // (which the stop at 59400 triggers on) has not moved.
    const customer = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Vip, balance: 20 });
    const strategy = await insertStrategy(ctx, { leverage: 50, tp: [{ target: 5, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 1 }, groups: [{ group: CustomerGroup.Vip, investType: AmountType.Quantity, amount: 0.01 }] });
    const { orderId } = await openPositions(ctx, strategy.url);
    expect((await executionsOf(ctx, orderId)).map((row) => row.state)).toEqual(['open']);

    sandbox.control.setQuote('BTCUSDT', { mark: 57000 });
    const account = () => sandbox.control.account(customer.sandbox!.uid);
    expect(account().positions.filter((p) => p.size > 0)).toEqual([]);
    const [row] = await waitFor('the liquidation booked', async () => {
      const rows = await executionsOf(ctx, orderId);
      return rows[0]?.state === 'closed' ? rows : undefined;
    });
    const takeover = account().orders.find((order) => order.labels.liquidation);
    expect(takeover).toBeDefined();
    const bust = takeover!.avgPrice;
    // The entry paid its fee; the takeover at the bankruptcy price pays none.
    const fees = feesPaid(sandbox, customer, 'BTCUSDT');
    expect(fees).toBeCloseTo(0.01 * 60000 * 0.00055, 6);
    expect(Number(row!.realized_pnl)).toBeCloseTo((bust - 60000) * 0.01 - fees, 6);
    const audits = await auditsOf(ctx, 'exit_audits', orderId);
    expect(audits.map((audit) => [audit.exit_type ?? null, audit.message])).toEqual([
      [null, `0.01 BTCUSDT was liquidated by the exchange: taken over at ${bust}, its bankruptcy price; ${netPnlText((bust - 60000) * 0.01, fees)}`],
    ]);
    expect(account().orders.filter((order) => ['new', 'untriggered', 'partiallyFilled'].includes(order.status))).toEqual([]);
    sandbox.control.setQuote('BTCUSDT', { mark: 60000 });
  });
});
