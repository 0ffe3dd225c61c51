import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, EntryDirection, OrderEntryType } from '../../contract/enums';
import { startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { enqueueOrder } from '../../server/trading/enqueue';
import { EXECUTIONS_CHANNEL } from '../../server/trading/execution-state/queue';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, startEngine, tradingCustomer, waitFor } from './fixtures';

/**
 * Work another process queued wakes this dispatcher by NOTIFY: it must go on hearing it after its
 * LISTEN connection drops (a restarted PostgreSQL, a network cut), not fall back to its safety poll.
 */
describe("the dispatcher's wake-ups", () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
    // No safety poll within the test: only a NOTIFY (or a reconnection's claim) can start the entry.
    dispatcher = await startEngine(ctx, sandbox, { safetyPollMs: 600_000 });
  });
  afterAll(async () => {
    await dispatcher.stop();
    await sandbox.close();
    await ctx.close();
  });

  it('after its LISTEN connection was cut, an entry queued by another process is still placed', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    const customer = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold });
    const listening = sql`select pid from pg_stat_activity where query = ${`listen ${EXECUTIONS_CHANNEL}`} and datname = current_database()`;
    const [listener] = await waitFor('the dispatcher listening', async () => {
      const rows = (await ctx.deps.db.execute<{ pid: number }>(listening)).rows;
      return rows.length === 1 ? rows : undefined;
    });
    await ctx.deps.db.execute(sql`select pg_terminate_backend(${listener!.pid})`);

    // Queued without a local claim, as another process's intake does: only the NOTIFY says it is there.
    const queued = await ctx.deps.db.transaction((tx) =>
      enqueueOrder(tx, { strategyId: strategy.id, side: EntryDirection.Long, entryType: OrderEntryType.Manual, signalId: null, receiveOnce: false, deadlineMs: 60_000, referencePrice: null }),
    );
    expect(queued).toMatchObject({ executions: 1, claimed: [] });
    await waitFor('the entry placed', async () => (await executionsOf(ctx, queued.orderId))[0]?.state === 'open', 30_000);
    expect(sandbox.control.account(customer.sandbox!.uid).positions.find((p) => p.size > 0)?.size).toBe(0.01);
  });
});
