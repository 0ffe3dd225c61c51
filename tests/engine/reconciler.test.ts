import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { bitgetClient, bybitClient, bybitRaw, startExactSandbox } from '../../server/sandbox/test-support';
import { reconcileAccount } from '../../server/trading/accounts/reconcile-account';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { closeOrder } from '../../server/trading/intake';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, openPositions, startEngine, tradingCustomer, waitFor, type TradingCustomer } from './fixtures';

/**
 * The reconciler's whole-account check (ARCHITECTURE 6a): a leg live on the exchange that no open
 * execution owns is cancelled; a position on a traded symbol the platform did not open is reported to
 * staff once and never touched. Asserted on the exchange's state read back and on the audit.
 */
describe('the reconciler checks each account as a whole', () => {
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

  const check = (customer: TradingCustomer) =>
    reconcileAccount(
      ctx.deps.db,
      ctx.deps.exchanges.adapters[customer.exchange],
      { customerId: customer.customerId, platformType: customer.exchange === 'bybit' ? 2 : 1, credentials: { apiKey: customer.sandbox!.apiKey, secret: customer.sandbox!.secret, passphrase: customer.sandbox!.passphrase || undefined } },
      0,
    );
  const liveIds = (customer: TradingCustomer) => sandbox.control.account(customer.sandbox!.uid).orders.filter((o) => ['new', 'untriggered'].includes(o.status)).map((o) => o.clientOrderId);
  const positionOf = (customer: TradingCustomer) => sandbox.control.account(customer.sandbox!.uid).positions.find((p) => p.symbol === 'BTCUSDT' && p.size > 0);
  async function told(customerId: number): Promise<string[]> {
    const rows = await ctx.deps.db.execute<{ message: string }>(sql`select message from exit_audits where customer_id = ${customerId} and message like 'Reconciler:%' order by id`);
    return rows.rows.map((row) => row.message);
  }

  it('a Bybit leg of a closed position left live (conditional orders survive their position) is cancelled and audited', async () => {
    const customer = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold });
    const strategy = await insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    const { orderId } = await openPositions(ctx, strategy.url);
    const admin = (await ctx.deps.db.execute<{ id: number }>(sql`select id from accounts limit 1`)).rows[0]!.id;
    await closeOrder(ctx.deps, { orderId, actorAccountId: admin });
    await waitFor('closed', async () => (await executionsOf(ctx, orderId)).every((row) => row.state === 'closed'));
    // What a crash between the close and its cancels leaves: a take-profit leg of that execution, still live.
    const id = `ct${orderId}-${customer.customerId}-tp2r7`;
    const placed = await bybitRaw(sandbox.url, customer.sandbox!, 'POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Sell', orderType: 'Market', qty: '0.01', triggerPrice: '66000', triggerDirection: 1, orderLinkId: id });
    expect(placed.json()).toMatchObject({ retCode: 0 });
    expect(liveIds(customer)).toEqual([id]);

    expect(await check(customer)).toEqual({ orphans: 1, findings: 0 });
    expect(liveIds(customer)).toEqual([]);
    expect(await told(customer.customerId)).toEqual([`Reconciler: order ${id} on BTCUSDT belongs to no open position of the platform but was still live on the exchange: cancelled`]);
  });

  it.each(['bybit', 'bitget'] as const)('%s: a position the platform did not open is reported once, never touched, and forgotten once closed', async (exchange) => {
    await ctx.deps.db.execute(sql`update customers set "group" = ${CustomerGroup.Occasion} where "group" = ${CustomerGroup.Gold}`);
    const customer = await tradingCustomer(ctx, sandbox, { exchange, group: CustomerGroup.Gold });
    await insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    const client = exchange === 'bybit' ? bybitClient(sandbox.url, customer.sandbox!) : bitgetClient(sandbox.url, customer.sandbox!);
    const extra = exchange === 'bybit' ? {} : { marginMode: 'cross' };
    await client.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.02, undefined, extra);
    const name = exchange === 'bybit' ? 'Bybit' : 'Bitget';

    expect(await check(customer)).toEqual({ orphans: 0, findings: 1 });
    expect(await check(customer)).toEqual({ orphans: 0, findings: 0 });
    expect(positionOf(customer)?.size).toBe(0.02);
    expect(await told(customer.customerId)).toEqual([`Reconciler: ${name} shows a long position of 0.02 BTCUSDT that the platform did not open: it is left untouched`]);

    await client.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.02, undefined, { ...extra, reduceOnly: true });
    expect(await check(customer)).toEqual({ orphans: 0, findings: 0 });
    const left = await ctx.deps.db.execute(sql`select 1 from reconciler_findings where customer_id = ${customer.customerId}`);
    expect(left.rows).toEqual([]);
  });
});
