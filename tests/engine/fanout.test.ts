import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AmountType, CustomerGroup } from '../../contract/enums';
import { accounts } from '../../server/db/schema/index';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { entryStopQty, executionsOf, insertStrategy, startEngine, stopLossOf, stopsOf, tradingCustomer, waitFor, type TradingCustomer } from './fixtures';

describe('one alert fans out to every eligible customer', () => {
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

  it('places entry, TP legs, stop loss and trailing stop with the right sizes on both exchanges', async () => {
    const strategy = await insertStrategy(ctx, {
      tp: [
        { target: 1, volume: 50 },
        { target: 2, volume: 30 },
        { target: 3, volume: 20 },
      ],
      stopLoss: { type: AmountType.Percent, amount: 1 },
      trailing: { activationType: AmountType.Percent, activation: 1.5, closeType: AmountType.Percent, close: 0.5 },
      groups: [
        { group: CustomerGroup.Gold, investType: AmountType.Dollar, amount: 100 },
        { group: CustomerGroup.Vip, investType: AmountType.Quantity, amount: 0.005 },
      ],
    });
    const goldBybit = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold });
    const goldBitget = await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Gold });
    const vipBybit = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Vip });
    const ineligible: TradingCustomer[] = [
      await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Occasion }),
      await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold, status: AccountStatus.Blocked }),
      await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Gold, status: AccountStatus.Pending }),
      await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold, connected: false }),
    ];
    // Eligibility reads the customers table's copies of the account: a block or a deletion after
    // connecting must reach them.
    const blockedLater = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold });
    await ctx.deps.db.update(accounts).set({ status: AccountStatus.Blocked }).where(eq(accounts.id, blockedLater.accountId));
    const deletedLater = await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Vip });
    await ctx.deps.db.update(accounts).set({ deletedAt: new Date() }).where(eq(accounts.id, deletedLater.accountId));
    ineligible.push(blockedLater, deletedLater);

    const answer = await ctx.api('POST', strategy.url, { payload: '{"action":"open","ticker":"BTCUSDT.P"}', headers: { 'content-type': 'text/plain' } });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ action: 'open', duplicate: false, executions: 3, skipped: 0, message: 'Webhook received successfully' });

    const orderId = answer.body.data.orderId as number;
    const rows = await waitFor('protected positions', async () => {
      const list = await executionsOf(ctx, orderId);
      return list.every((row) => row.protected_at !== null) ? list : undefined;
    });
    expect(rows.map((row) => [row.customer_id, row.state, row.last_error])).toEqual(
      [goldBybit, goldBitget, vipBybit].map((c) => [c.customerId, 'open', null]),
    );

    for (const [customer, qty] of [
      [goldBybit, 0.016],
      [goldBitget, 0.016],
      [vipBybit, 0.005],
    ] as const) {
      const state = sandbox.control.account(customer.sandbox!.uid);
      const position = state.positions.find((p) => p.symbol === 'BTCUSDT')!;
      expect(position).toMatchObject({ side: 'long', size: qty, entryPrice: 60000 });
      // Bybit keeps the stop on the position; Bitget as a position stop-loss plan (pos_loss).
      expect(stopLossOf(state)).toBe(59400);
      expect(position.leverage.long).toBe(10);
      expect(state.positionMode).toBeDefined();
      const row = rows.find((r) => r.customer_id === customer.customerId)!;
      const entry = state.orders.find((o) => o.clientOrderId === row.client_order_id)!;
      // The stop travels with the entry order itself: no window without protection during the fan-out.
      expect(entry).toMatchObject({ status: expect.stringMatching(/filled/i), qty, stopLoss: 59400 });
      const order = ['sl', 'tp1', 'tp2', 'tp3', 'trailing'];
      const legs = row.legs
        .filter((leg) => leg.status === 'open')
        .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))
        .map((leg) => [leg.kind, leg.quantity, leg.price]);
      // The stop the entry carried stays: on Bybit sized to the fill (tpslMode Partial); on Bitget the position's
      // preset, this execution's own while it is alone on the position.
      const stopQty = entryStopQty(customer.exchange, qty);
      expect(legs).toEqual(
        qty === 0.016
          ? [['sl', stopQty, 59400], ['tp1', 0.008, 60600], ['tp2', 0.004, 61200], ['tp3', 0.004, 61800], ['trailing', 0.016, 60900]]
          : [['sl', stopQty, 59400], ['tp1', 0.002, 60600], ['tp2', 0.001, 61200], ['tp3', 0.002, 61800], ['trailing', 0.005, 60900]],
      );
      expect(stopsOf(state).map((stop) => stop.qty)).toEqual([stopQty]);
      for (const leg of row.legs.filter((l) => l.kind !== 'trailing' && l.kind !== 'sl' && l.status === 'open')) {
        const onExchange = state.orders.find((o) => o.clientOrderId === leg.clientOrderId);
        expect(onExchange, `${customer.exchange} ${leg.kind}`).toMatchObject({ qty: leg.quantity, triggerPrice: leg.price, reduceOnly: true });
      }
      expect(position.trailing ?? state.orders.find((o) => o.clientOrderId === row.legs.find((l) => l.kind === 'trailing')!.clientOrderId)).toBeTruthy();
    }
    for (const customer of ineligible) {
      if (!customer.sandbox) continue;
      const state = sandbox.control.account(customer.sandbox.uid);
      expect(state.orders).toEqual([]);
      expect(state.positions.filter((p) => p.size > 0)).toEqual([]);
    }
  });
});
