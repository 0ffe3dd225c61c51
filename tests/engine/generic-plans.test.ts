import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, EntryDirection, OrderEntryType } from '../../contract/enums';
import { enqueueOrder } from '../../server/trading/enqueue';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { insertStrategy, tradingCustomer } from './fixtures';

/**
 * PostgreSQL plans a statement afresh for each call's values while a generic plan's estimate looks
 * dearer (a set from an array or JSON of unknown length does): about 2 ms per alert for the executions
 * insert. The intake's call sets force_generic_plan for the rest of its transaction, so the statements
 * of its SQL functions (and those after it) run their cached generic plans.
 */
describe('the intake runs its statements on their generic plans', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  it('queues the executions of several Orders in one transaction with force_generic_plan in effect', async () => {
    const strategies: Array<{ id: string }> = [];
    for (let i = 0; i < 7; i++) {
      strategies.push(await insertStrategy(ctx, { symbol: `GP${i}USDT`, tp: [{ target: 1, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] }));
    }
    for (let i = 0; i < 3; i++) await tradingCustomer(ctx, null, { exchange: 'bybit', group: CustomerGroup.Gold });

    const plans = await ctx.deps.db.transaction(async (tx) => {
      for (const strategy of strategies) {
        const queued = await enqueueOrder(tx, { strategyId: strategy.id, side: EntryDirection.Long, entryType: OrderEntryType.Manual, signalId: null, receiveOnce: false, deadlineMs: 30_000, referencePrice: 100 });
        expect(queued.executions).toBe(3);
      }
      // Prepared statements and settings are the connection's: read on the transaction's own connection.
      const found = await tx.execute<{ calls: string; mode: string }>(
        sql`select (select generic_plans + custom_plans from pg_prepared_statements where name = 'trading_open_order') as calls, current_setting('plan_cache_mode') as mode`,
      );
      return found.rows[0];
    });
    expect(plans).toBeDefined();
    expect(Number(plans!.calls)).toBeGreaterThanOrEqual(strategies.length);
    expect(plans!.mode).toBe('force_generic_plan');
    const after = await ctx.deps.db.execute<{ mode: string }>(sql`select current_setting('plan_cache_mode') as mode`);
    expect(after.rows[0]!.mode).toBe('auto');
  });
});
