import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, EntryDirection, OrderEntryType } from '../../contract/enums';
import { enqueueOrder } from '../../server/trading/enqueue';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { insertStrategy, tradingCustomer } from './fixtures';

/**
 * PostgreSQL plans a prepared statement afresh for each call's values while a generic plan's estimate
 * looks dearer (an unnest of an array of unknown length does): about 2 ms per alert for the
 * executions insert. The intake's first call sets force_generic_plan for the rest of its transaction.
 */
describe('the intake transaction runs its prepared statements on their generic plans', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  it('queues the executions of several Orders in one transaction without a custom plan', async () => {
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
      // Prepared statements are the connection's: read on the transaction's own connection.
      const found = await tx.execute<{ generic_plans: string; custom_plans: string }>(
        sql`select generic_plans, custom_plans from pg_prepared_statements where name = 'trading_queue_executions'`,
      );
      return found.rows[0];
    });
    expect(plans).toBeDefined();
    expect(Number(plans!.custom_plans)).toBe(0);
    expect(Number(plans!.generic_plans)).toBe(strategies.length);
  });
});
