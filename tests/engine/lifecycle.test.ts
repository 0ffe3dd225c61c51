import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, ExitType, OrderStatus } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { bitgetClient, bybitClient, startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { closeOrder } from '../../server/trading/intake';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { auditsOf, executionsOf, feesPaid, insertStrategy, netPnlText, openPositions, startEngine, stopAtEntry, stopLossOf, stopsOf, syncNow, tradingCustomer, waitFor, type TradingCustomer } from './fixtures';

const qtyGroup = (amount: number) => [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount }];

describe('positions after the entry: closes, TP/SL, trailing, manual closes', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startExactSandbox({ randomWalk: false });
    for (const [symbol, price] of [['BTCUSDT', 60000], ['ETHUSDT', 3000], ['SOLUSDT', 150], ['XRPUSDT', 0.6], ['DOGEUSDT', 0.15]] as const) sandbox.control.setPrice(symbol, price);
    dispatcher = await startEngine(ctx, sandbox);
  });
  afterAll(async () => {
    await dispatcher.stop();
    await sandbox.close();
    await ctx.close();
  });

  /** A fresh Gold customer on each exchange (only they hold the strategy under test). */
  async function pair(): Promise<TradingCustomer[]> {
    await ctx.deps.db.execute(sql`update customers set "group" = ${CustomerGroup.Occasion} where "group" = ${CustomerGroup.Gold}`);
    return [await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold }), await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Gold })];
  }
  const positionOf = (customer: TradingCustomer, symbol: string) => sandbox.control.account(customer.sandbox!.uid).positions.find((p) => p.symbol === symbol && p.size > 0);
  const openOrders = (customer: TradingCustomer) => sandbox.control.account(customer.sandbox!.uid).orders.filter((o) => ['new', 'untriggered', 'partially_filled'].includes(o.status));

  /** Exit audits by customer (their order of writing is the closes' race): [customer, exit type, message]. */
  const perCustomer = (audits: Array<{ customer_id: number; exit_type?: number | null; message: string }>) =>
    audits.map((a) => [a.customer_id, a.exit_type ?? null, a.message]).sort((a, b) => Number(a[0]) - Number(b[0]));

  async function orderStatus(orderId: number): Promise<number> {
    const result = await ctx.deps.db.execute<{ status: number }>(sql`select status from orders where id = ${orderId}`);
    return Number(result.rows[0]!.status);
  }

  it('closeOrder closes every position at market, cancels the legs, audits exit type 1, and is idempotent', async () => {
    const customers = await pair();
    const strategy = await insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], groups: qtyGroup(0.01) });
    const { orderId } = await openPositions(ctx, strategy.url);
    sandbox.control.setPrice('BTCUSDT', 60300);
    const admin = (await ctx.deps.db.execute<{ id: number }>(sql`select id from accounts limit 1`)).rows[0]!.id;
    expect(await closeOrder(ctx.deps, { orderId, actorAccountId: admin })).toEqual({ orderId, closing: 2 });
    await waitFor('order settled', async () => (await orderStatus(orderId)) !== OrderStatus.Active);
    expect(await orderStatus(orderId)).toBe(OrderStatus.Win);
    for (const customer of customers) {
      expect(positionOf(customer, 'BTCUSDT')).toBeUndefined();
      expect(openOrders(customer)).toEqual([]);
    }
    const rows = await executionsOf(ctx, orderId);
    const fees = customers.map((customer) => feesPaid(sandbox, customer, 'BTCUSDT'));
    expect(rows.map((row) => row.state)).toEqual(['closed', 'closed']);
    for (const [i, row] of rows.entries()) expect(Number(row.realized_pnl)).toBeCloseTo(3 - fees[i]!, 6);
    const audits = await auditsOf(ctx, 'exit_audits', orderId);
    expect(perCustomer(audits)).toEqual(
      customers.map((customer, i) => [customer.customerId, ExitType.ByAdmin, `Position closed by admin at market: 0.01 BTCUSDT at 60300; ${netPnlText(3, fees[i]!)}`]),
    );
    const trades = await ctx.deps.db.execute<{ total_transactions: number }>(sql`select total_transactions from customers where id in ${customers.map((c) => c.customerId)}`);
    expect(trades.rows.map((r) => r.total_transactions)).toEqual([1, 1]);
    await expect(closeOrder(ctx.deps, { orderId, actorAccountId: admin })).rejects.toMatchObject({ reason: 'state', message: `Order ${orderId} is already closed.` });
    expect(await auditsOf(ctx, 'exit_audits', orderId)).toHaveLength(2);
    sandbox.control.setPrice('BTCUSDT', 60000);
  });

  it('a close alert closes the open positions with exit type "by signal" (null) and the order is a loss', async () => {
    const customers = await pair();
    const strategy = await insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], groups: qtyGroup(0.01) });
    const { orderId } = await openPositions(ctx, strategy.url);
    sandbox.control.setPrice('BTCUSDT', 59900);
    const answer = await ctx.api('POST', strategy.url, { payload: 'close', headers: { 'content-type': 'text/plain' } });
    expect(answer.body.data).toMatchObject({ action: 'close', closing: 2 });
    await waitFor('order settled', async () => (await orderStatus(orderId)) !== OrderStatus.Active);
    expect(await orderStatus(orderId)).toBe(OrderStatus.Loss);
    for (const customer of customers) expect(positionOf(customer, 'BTCUSDT')).toBeUndefined();
    expect(perCustomer(await auditsOf(ctx, 'exit_audits', orderId))).toEqual(
      customers.map((customer) => [customer.customerId, null, `Position closed by a close signal at market: 0.01 BTCUSDT at 59900; ${netPnlText(-1, feesPaid(sandbox, customer, 'BTCUSDT'))}`]),
    );
    sandbox.control.setPrice('BTCUSDT', 60000);
  });

  it('TP1 fills: booked, stop moved to entry (advanceStopLoss); a manual partial close on the exchange resizes the remaining legs', async () => {
    const customers = await pair();
    const strategy = await insertStrategy(ctx, {
      symbol: 'ETHUSDT',
      tp: [{ target: 1, volume: 50 }, { target: 2, volume: 30 }, { target: 3, volume: 20 }],
      stopLoss: { type: AmountType.Percent, amount: 2 },
      advanceStopLoss: true,
      groups: qtyGroup(1),
    });
    const { orderId } = await openPositions(ctx, strategy.url);
    sandbox.control.setPrice('ETHUSDT', 3030);
    for (const customer of customers) expect(positionOf(customer, 'ETHUSDT')?.size).toBe(0.5);
    await syncNow(ctx, dispatcher);
    const moved = await waitFor('stop moved', async () => {
      const rows = await executionsOf(ctx, orderId);
      return rows.every((row) => row.stop_moved_to_entry) ? rows : undefined;
    });
    expect(moved.map((row) => [Number(row.realized_pnl), row.legs.find((l) => l.kind === 'tp1')!.status])).toEqual([[15, 'filled'], [15, 'filled']]);
    for (const customer of customers) expect(stopLossOf(sandbox.control.account(customer.sandbox!.uid), 'ETHUSDT')).toBe(stopAtEntry(customer.exchange, 3000, 0.01));

    // The customer closes 0.2 ETH by hand: the remaining TP2/TP3 (0.3 + 0.2) must shrink to the 0.3 left.
    const bybit = bybitClient(sandbox.url, customers[0]!.sandbox!);
    await bybit.createOrder('ETH/USDT:USDT', 'market', 'sell', 0.2, undefined, { reduceOnly: true });
    const bitget = bitgetClient(sandbox.url, customers[1]!.sandbox!);
    await bitget.createOrder('ETH/USDT:USDT', 'market', 'sell', 0.2, undefined, { reduceOnly: true, marginMode: 'cross' });
    for (const customer of customers) expect(positionOf(customer, 'ETHUSDT')?.size).toBe(0.3);
    await syncNow(ctx, dispatcher);
    const resized = await waitFor('legs resized', async () => {
      const rows = await executionsOf(ctx, orderId);
      // Resized, and the legs they replaced cancelled (a cancel refused for the account's read ceiling is retried).
      const done = (row: (typeof rows)[number]) =>
        row.legs.some((l) => l.kind === 'tp2' && l.status === 'open' && l.clientOrderId.endsWith('r1')) && row.legs.filter((l) => l.status === 'open' && l.kind !== 'trailing').length === 3;
      return rows.every(done) ? rows : undefined;
    });
    for (const [index, customer] of customers.entries()) {
      const open = resized[index]!.legs.filter((l) => l.status === 'open' && l.kind !== 'trailing').map((l) => [l.kind, l.quantity, l.price]);
      // The stop follows what is left too: 0.3 at the entry price.
      expect(open).toEqual([['sl', 0.3, stopAtEntry(customer.exchange, 3000, 0.01)], ['tp2', 0.18, 3060], ['tp3', 0.12, 3090]]);
      expect(stopsOf(sandbox.control.account(customer.sandbox!.uid), 'ETHUSDT').map((stop) => [stop.qty, stop.price])).toEqual([[0.3, stopAtEntry(customer.exchange, 3000, 0.01)]]);
      const onExchange = openOrders(customer).filter((o) => o.labels.tpsl === 'tp' || o.clientOrderId.includes('-tp')).map((o) => [o.clientOrderId.split('-').at(-1), o.qty]);
      expect(onExchange).toEqual([['tp2r1', 0.18], ['tp3r1', 0.12]]);
    }
    const manual = (await auditsOf(ctx, 'exit_audits', orderId)).filter((a) => a.exit_type === ExitType.Customer);
    expect(manual).toHaveLength(2);
    expect(manual[0]!.message).toBe('0.2 ETHUSDT was closed on the exchange outside the platform (by the customer), at about 3030');
  });

  it('the stop loss triggering on the exchange closes the execution and the order as a loss', async () => {
    const customers = await pair();
    const strategy = await insertStrategy(ctx, { symbol: 'XRPUSDT', tp: [{ target: 5, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 2 }, groups: qtyGroup(100) });
    const { orderId } = await openPositions(ctx, strategy.url);
    sandbox.control.setPrice('XRPUSDT', 0.58);
    for (const customer of customers) expect(positionOf(customer, 'XRPUSDT')).toBeUndefined();
    await syncNow(ctx, dispatcher);
    await waitFor('order settled', async () => (await orderStatus(orderId)) !== OrderStatus.Active);
    expect(await orderStatus(orderId)).toBe(OrderStatus.Loss);
    const audits = await auditsOf(ctx, 'exit_audits', orderId);
    expect(audits.map((a) => [a.exit_type, a.message.split(';')[0]])).toEqual(customers.map(() => [null, 'Stop loss at 0.588 closed 100 XRPUSDT at 0.58']));
    for (const customer of customers) expect(openOrders(customer)).toEqual([]);
  });

  it('a trailing stop triggering on the exchange is noticed and the order settles', async () => {
    const customers = await pair();
    const strategy = await insertStrategy(ctx, {
      symbol: 'SOLUSDT',
      tp: [{ target: 10, volume: 100 }],
      stopLoss: { type: AmountType.Percent, amount: 5 },
      trailing: { activationType: AmountType.Percent, activation: 2, closeType: AmountType.Percent, close: 1 },
      groups: qtyGroup(1),
    });
    const { orderId } = await openPositions(ctx, strategy.url);
    sandbox.control.setPrice('SOLUSDT', 154);
    sandbox.control.setPrice('SOLUSDT', 152);
    for (const customer of customers) expect(positionOf(customer, 'SOLUSDT')).toBeUndefined();
    await syncNow(ctx, dispatcher);
    await waitFor('order settled', async () => (await orderStatus(orderId)) !== OrderStatus.Active);
    expect(await orderStatus(orderId)).toBe(OrderStatus.Win);
    const audits = await auditsOf(ctx, 'exit_audits', orderId);
    expect(audits.map((a) => a.exit_type)).toEqual([null, null]);
    for (const audit of audits) expect(audit.message).toMatch(/^Trailing stop/);
  });

  it('a position closed by hand on the exchange is noticed: exit type 2 (customer)', async () => {
    const customers = await pair();
    const strategy = await insertStrategy(ctx, { symbol: 'DOGEUSDT', tp: [{ target: 10, volume: 100 }], groups: qtyGroup(100) });
    const { orderId } = await openPositions(ctx, strategy.url);
    await bybitClient(sandbox.url, customers[0]!.sandbox!).createOrder('DOGE/USDT:USDT', 'market', 'sell', 100, undefined, { reduceOnly: true });
    await bitgetClient(sandbox.url, customers[1]!.sandbox!).createOrder('DOGE/USDT:USDT', 'market', 'sell', 100, undefined, { reduceOnly: true, marginMode: 'cross' });
    await syncNow(ctx, dispatcher);
    await waitFor('order settled', async () => (await orderStatus(orderId)) !== OrderStatus.Active);
    const audits = await auditsOf(ctx, 'exit_audits', orderId);
    expect(perCustomer(audits)).toEqual(
      customers.map((customer) => [customer.customerId, ExitType.Customer, `100 DOGEUSDT was closed on the exchange outside the platform (by the customer), at about 0.15; ${netPnlText(0, feesPaid(sandbox, customer, 'DOGEUSDT'))}`]),
    );
    for (const customer of customers) expect(openOrders(customer)).toEqual([]);
  });
});
