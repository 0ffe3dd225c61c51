import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, EntryDirection, OrderEntryType } from '../../contract/enums';
import { loadContexts } from '../../server/trading/context';
import { enqueueOrder } from '../../server/trading/enqueue';
import { PlacedEntries } from '../../server/trading/execution-state/entry';
import { claimExecutions } from '../../server/trading/execution-state/queue';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, tradingCustomer } from './fixtures';

/** A fan-out's acknowledged entries are recorded together: one statement for those of the same moment, each row by its claim holder only. */
describe('entries placed at the same moment', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('records forty acknowledged entries with one statement, and leaves a row another worker claimed alone', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    for (let i = 0; i < 41; i += 1) await tradingCustomer(ctx, null, { exchange: 'bybit', group: CustomerGroup.Gold });
    const { orderId } = await ctx.deps.db.transaction((tx) =>
      enqueueOrder(tx, { strategyId: strategy.id, side: EntryDirection.Long, entryType: OrderEntryType.Manual, signalId: null, receiveOnce: false, deadlineMs: 60_000, referencePrice: null }),
    );
    const other = await claimExecutions(ctx.deps.db, { worker: 'w-other', limit: { bybit: 1, bitget: 0 }, leaseMs: 60_000, kind: 'work' });
    const ours = await claimExecutions(ctx.deps.db, { worker: 'w-ours', limit: { bybit: 40, bitget: 0 }, leaseMs: 60_000, kind: 'work' });
    expect(ours).toHaveLength(40);
    const contexts = await loadContexts(ctx.deps.db, 'w-ours', ours);
    // The other worker's execution, as a stale copy this worker might still hold.
    const [stale] = await loadContexts(ctx.deps.db, 'w-other', other);

    let statements = 0;
    const count = () => void (statements += 1);
    ctx.handle.pool.on('acquire', count);
    const placed = new PlacedEntries({ db: ctx.deps.db, worker: 'w-ours' });
    const legs = [{ kind: 'sl' as const, clientOrderId: '', attached: true, quantity: 0.01, price: 58_800, filledQty: 0, avgPrice: null, status: 'open' as const, round: -1 }];
    await Promise.all([
      ...contexts.map((execution, i) => placed.record(execution, { quantity: 1 + i, exchangeOrderId: `x${execution.id}`, legs, stopLossPrice: 58_800 })),
      placed.record(stale!, { quantity: 1, exchangeOrderId: 'not ours', legs: [], stopLossPrice: null }),
    ]);
    ctx.handle.pool.off('acquire', count);

    expect(statements).toBe(1);
    const rows = new Map((await executionsOf(ctx, orderId)).map((row) => [Number(row.id), row]));
    for (const [i, execution] of contexts.entries()) {
      const row = rows.get(execution.id)!;
      expect([row.state, Number(row.quantity), row.exchange_order_id, Number(row.stop_loss_price), row.entry_price]).toEqual(['open', 1 + i, `x${execution.id}`, 58_800, null]);
      expect(row.legs).toEqual(legs);
      expect(execution.state).toBe('open');
    }
    const untouched = rows.get(other[0]!)!;
    expect([untouched.state, untouched.exchange_order_id]).toEqual(['pending', null]);
  });
});
