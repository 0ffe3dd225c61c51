import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { closeOrder } from '../../server/trading/intake';
import { auditsOf, executionsOf, insertStrategy, openPositions, startEngine, tradingCustomer, waitFor, type TradingCustomer } from './fixtures';

/**
 * LIVE-FIDELITY D5: leverage is the symbol's (both sides), so a second strategy with another leverage
 * must not change it under the first one's open position (that would move its liquidation price): the
 * entry is skipped and audited, and the exchange keeps the first leverage.
 */
describe('no leverage change under another execution\'s open position (D5)', () => {
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

  const gold = (amount: number) => [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount }];
  const positionOf = (customer: TradingCustomer) => sandbox.control.account(customer.sandbox!.uid).positions.find((p) => p.symbol === 'BTCUSDT');

  it('a strategy with another leverage skips the customers holding the symbol through another strategy', async () => {
    const customers = [await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold }), await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Gold })];
    const first = await insertStrategy(ctx, { leverage: 10, tp: [{ target: 5, volume: 100 }], groups: gold(0.01) });
    const second = await insertStrategy(ctx, { leverage: 20, tp: [{ target: 5, volume: 100 }], groups: gold(0.02) });
    const { orderId: firstOrder } = await openPositions(ctx, first.url);
    const { orderId } = await openPositions(ctx, second.url);

    for (const customer of customers) {
      const position = positionOf(customer)!;
      expect(position.size).toBe(0.01);
      expect(position.leverage).toEqual({ long: 10, short: 10 });
    }
    expect((await executionsOf(ctx, orderId)).map((row) => row.state)).toEqual(['skipped', 'skipped']);
    const audits = await auditsOf(ctx, 'entry_audits', orderId);
    expect(audits.map((a) => a.message)).toEqual(
      customers.map(() => `The customer already holds BTCUSDT through strategy ${first.id} at leverage 10x; changing it to 20x would move that position's liquidation price, so this entry was skipped`),
    );

    // Once the first position is closed, the second strategy's next alert sets its leverage and enters.
    const admin = (await ctx.deps.db.execute<{ id: number }>(sql`select id from accounts limit 1`)).rows[0]!.id;
    await closeOrder(ctx.deps, { orderId: firstOrder, actorAccountId: admin });
    await waitFor('first order closed', async () => (await executionsOf(ctx, firstOrder)).every((row) => row.state === 'closed'));
    await openPositions(ctx, second.url, '{"action":"open","alert_id":"again"}');
    for (const customer of customers) {
      expect(positionOf(customer)).toMatchObject({ size: 0.02, leverage: { long: 20, short: 20 } });
    }
  });
});
