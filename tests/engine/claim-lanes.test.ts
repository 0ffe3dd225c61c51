import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, EntryDirection, OrderEntryType } from '../../contract/enums';
import { enqueueOrder } from '../../server/trading/enqueue';
import { claimExecutions } from '../../server/trading/execution-state/queue';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, tradingCustomer } from './fixtures';

/** The dispatcher claims every lane's work in one statement, each lane up to its own room. */
describe('one claim statement across lanes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('claims at most each lane its limit, skips a lane without room, and never claims a row twice', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    const bybit = new Set<number>();
    const bitget = new Set<number>();
    for (let i = 0; i < 3; i += 1) bybit.add((await tradingCustomer(ctx, null, { exchange: 'bybit', group: CustomerGroup.Gold })).customerId);
    for (let i = 0; i < 3; i += 1) bitget.add((await tradingCustomer(ctx, null, { exchange: 'bitget', group: CustomerGroup.Gold })).customerId);
    const { orderId } = await ctx.deps.db.transaction((tx) =>
      enqueueOrder(tx, { strategyId: strategy.id, side: EntryDirection.Long, entryType: OrderEntryType.Manual, signalId: null, receiveOnce: false, deadlineMs: 60_000, referencePrice: null }),
    );
    const customerOf = new Map((await executionsOf(ctx, orderId)).map((row) => [Number(row.id), Number(row.customer_id)]));
    const lanesOf = (ids: number[]) => ({ bybit: ids.filter((id) => bybit.has(customerOf.get(id)!)).length, bitget: ids.filter((id) => bitget.has(customerOf.get(id)!)).length });

    const first = await claimExecutions(ctx.deps.db, { worker: 'w1', limit: { bybit: 1, bitget: 2 }, leaseMs: 60_000, kind: 'work' });
    expect(lanesOf(first)).toEqual({ bybit: 1, bitget: 2 });
    const second = await claimExecutions(ctx.deps.db, { worker: 'w2', limit: { bybit: 5, bitget: 0 }, leaseMs: 60_000, kind: 'work' });
    expect(lanesOf(second)).toEqual({ bybit: 2, bitget: 0 });
    expect(await claimExecutions(ctx.deps.db, { worker: 'w2', limit: { bybit: 0, bitget: 0 }, leaseMs: 60_000, kind: 'work' })).toEqual([]);
    const third = await claimExecutions(ctx.deps.db, { worker: 'w3', limit: { bybit: 5, bitget: 5 }, leaseMs: 60_000, kind: 'work' });
    expect(lanesOf(third)).toEqual({ bybit: 0, bitget: 1 });
    expect(new Set([...first, ...second, ...third]).size).toBe(6);
  });
});
