import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, EntryDirection, OrderStatus } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { closeOrder } from '../../server/trading/intake';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { auditsOf, executionsOf, insertStrategy, openPositions, startEngine, stopsOf, tradingCustomer, waitFor, type TradingCustomer } from './fixtures';

const open = ['new', 'untriggered', 'partially_filled'];

describe('each execution owns its protection: two strategies on one symbol and account', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;
  let customers: TradingCustomer[];
  let admin: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startExactSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
    dispatcher = await startEngine(ctx, sandbox);
    customers = [await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold }), await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Gold })];
    admin = (await ctx.deps.db.execute<{ id: number }>(sql`select id from accounts limit 1`)).rows[0]!.id;
  });
  afterAll(async () => {
    await dispatcher.stop();
    await sandbox.close();
    await ctx.close();
  });

  const state = (customer: TradingCustomer) => sandbox.control.account(customer.sandbox!.uid);
  const positionSize = (customer: TradingCustomer) => state(customer).positions.find((p) => p.symbol === 'BTCUSDT' && p.size > 0)?.size ?? 0;
  const takeProfits = (customer: TradingCustomer) =>
    state(customer)
      .orders.filter((o) => open.includes(o.status) && (o.labels.tpsl === 'tp' || /-tp\d(r\d+)?$/.test(o.clientOrderId)))
      .map((o) => [o.qty, o.triggerPrice])
      .sort((a, b) => a[1]! - b[1]!);
  const stops = (customer: TradingCustomer) => stopsOf(state(customer)).map((stop) => [stop.qty, stop.price]).sort((a, b) => a[1]! - b[1]!);
  const group = (amount: number) => [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount }];

  it('a second strategy on the same side adds its own sized stop and take-profit; closing it leaves the first one whole', async () => {
    const first = await insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 1 }, groups: group(0.01) });
    const second = await insertStrategy(ctx, { tp: [{ target: 4, volume: 100 }], stopLoss: { type: AmountType.Percent, amount: 2 }, groups: group(0.02) });
    const a = await openPositions(ctx, first.url);
    const b = await openPositions(ctx, second.url);
    expect([...a.rows, ...b.rows].map((row) => row.state)).toEqual(['open', 'open', 'open', 'open']);
    for (const customer of customers) {
      expect(positionSize(customer)).toBe(0.03);
      // Neither stop overwrote the other: each is sized to its own execution at its own level (on Bitget the
      // first one's whole-position preset becomes a stop of its own size as soon as the second one joins).
      await waitFor('stops sized per execution', async () => JSON.stringify(stops(customer)) === JSON.stringify([[0.02, 58800], [0.01, 59400]]), 10_000).catch(() => undefined);
      expect(stops(customer)).toEqual([[0.02, 58800], [0.01, 59400]]);
      expect(takeProfits(customer)).toEqual([[0.02, 62400], [0.01, 63000]]);
    }

    expect(await closeOrder(ctx.deps, { orderId: b.orderId, actorAccountId: admin })).toMatchObject({ closing: 2 });
    await waitFor('second order closed', async () => (await executionsOf(ctx, b.orderId)).every((row) => row.state === 'closed'));
    for (const customer of customers) {
      expect(positionSize(customer)).toBe(0.01);
      expect(stops(customer)).toEqual([[0.01, 59400]]);
      expect(takeProfits(customer)).toEqual([[0.01, 63000]]);
    }
    expect((await executionsOf(ctx, a.orderId)).map((row) => row.state)).toEqual(['open', 'open']);
    const status = await ctx.deps.db.execute<{ status: number }>(sql`select status from orders where id = ${a.orderId}`);
    expect(Number(status.rows[0]!.status)).toBe(OrderStatus.Active);
  });

  it('one-way mode: an entry that would net against another strategy is skipped and audited; Bybit does not share a position with a trailing stop', async () => {
    const short = await insertStrategy(ctx, { entryDirection: EntryDirection.Short, tp: [{ target: 3, volume: 100 }], groups: group(0.01) });
    const answer = await ctx.api('POST', short.url, { payload: '{"action":"open"}', headers: { 'content-type': 'application/json' } });
    expect(answer.body.data).toMatchObject({ action: 'open', executions: 0, skipped: 2 });
    const held = (await executionsOf(ctx)).find((row) => row.state === 'open')!;
    const holder = (await ctx.deps.db.execute<{ strategy_id: string }>(sql`select strategy_id from orders where id = ${held.order_id}`)).rows[0]!.strategy_id;
    const audits = await auditsOf(ctx, 'entry_audits', answer.body.data.orderId as number);
    expect(audits.map((a) => a.message)).toEqual(
      customers.map(() => `The customer already holds BTCUSDT through strategy ${holder}; in one-way mode this Short entry would net against that position, so this entry was skipped`),
    );

    const trailing = await insertStrategy(ctx, {
      tp: [{ target: 3, volume: 100 }],
      trailing: { activationType: AmountType.Percent, activation: 1, closeType: AmountType.Percent, close: 0.5 },
      groups: group(0.01),
    });
    const shared = await ctx.api('POST', trailing.url, { payload: '{"action":"open"}', headers: { 'content-type': 'application/json' } });
    expect(shared.body.data).toMatchObject({ executions: 1, skipped: 1 });
    expect((await auditsOf(ctx, 'entry_audits', shared.body.data.orderId as number)).map((a) => [a.customer_id, a.message])).toEqual([
      [customers[0]!.customerId, `The customer already holds BTCUSDT through strategy ${holder}; Bybit's trailing stop belongs to the whole position and the two could not each keep their own, so this entry was skipped`],
    ]);
    // On Bitget the trailing stop is a sized plan of its own: the two strategies share the position.
    await waitFor('bitget entry protected', async () => (await executionsOf(ctx, shared.body.data.orderId as number)).every((row) => row.protected_at !== null && row.claimed_by === null));
    expect(customers.map(positionSize)).toEqual([0.01, 0.02]);
    expect(stops(customers[1]!)).toEqual([[0.01, 58800], [0.01, 59400]]);
  });
});
