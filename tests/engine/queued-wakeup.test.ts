import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, EntryDirection, OrderEntryType } from '../../contract/enums';
import { enqueueOrder, type EnqueueInput, type LocalClaim } from '../../server/trading/enqueue';
import { executionClientOrderId } from '../../server/trading/ids';
import { EXECUTIONS_CHANNEL } from '../../server/trading/execution-state/queue';
import { isMarker, notificationsDelivered } from '../helpers/notifications';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { insertStrategy, tradingCustomer } from './fixtures';

/**
 * Opening an Order and queuing its executions is one statement: the inserts, the NOTIFY that wakes
 * every dispatcher when some are left unclaimed, and the contexts of those claimed by this process's dispatcher.
 */
describe('queued executions wake the dispatchers from the same statement', () => {
  let ctx: TestContext;
  let listener: pg.Client;
  const heard: string[] = [];
  beforeAll(async () => {
    ctx = await createTestContext();
    listener = new pg.Client(ctx.handle.pool.options);
    await listener.connect();
    listener.on('notification', (message) => heard.push(`${message.channel}:${message.payload}`));
    await listener.query(`listen ${EXECUTIONS_CHANNEL}`);
  });
  afterAll(async () => {
    await listener.end();
    await ctx.close();
  });

  it('notifies once when executions wait for any dispatcher, not when the local one claimed them all, and returns the claimed contexts', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    const customers = [await tradingCustomer(ctx, null, { exchange: 'bybit', group: CustomerGroup.Gold }), await tradingCustomer(ctx, null, { exchange: 'bitget', group: CustomerGroup.Gold })];
    const input: EnqueueInput = { strategyId: strategy.id, side: EntryDirection.Long, entryType: OrderEntryType.Manual, signalId: null, receiveOnce: false, deadlineMs: 60_000, referencePrice: null };
    // Every notification committed so far has arrived; what was heard, without the test's own markers.
    const settle = async () => {
      await notificationsDelivered(listener, ctx.handle.pool, EXECUTIONS_CHANNEL);
      return heard.filter((entry) => !isMarker(entry.slice(entry.indexOf(':') + 1)));
    };

    const open = await ctx.deps.db.transaction((tx) => enqueueOrder(tx, input));
    expect(await settle()).toEqual([`${EXECUTIONS_CHANNEL}:${open.orderId}`]);
    expect(open).toMatchObject({ executions: 2, claimed: [] });

    const claim: LocalClaim = { worker: 'local', leaseMs: 60_000, room: { bybit: 5, bitget: 5 }, slices: null, answer: 500 };
    const local = await ctx.deps.db.transaction((tx) => enqueueOrder(tx, { ...input, claim }));
    expect(await settle()).toHaveLength(1);
    expect(local.claimed.map((c) => [c.customerId, c.orderId, c.clientOrderId, c.attempts, c.state, c.strategy.id, c.sharedSlot])).toEqual(
      // The entry's client order id the SQL function wrote is the one the adapters' scheme gives.
      customers.map((c) => [c.customerId, local.orderId, executionClientOrderId(local.orderId, c.customerId, 'entry'), 1, 'pending', strategy.id, true]),
    );

    const partial = await ctx.deps.db.transaction((tx) => enqueueOrder(tx, { ...input, claim: { ...claim, room: { bybit: 1, bitget: 0 } } }));
    expect(await settle()).toEqual([`${EXECUTIONS_CHANNEL}:${open.orderId}`, `${EXECUTIONS_CHANNEL}:${partial.orderId}`]);
    expect(partial.claimed.map((c) => c.customerId)).toEqual([customers[0]!.customerId]);
  });
});
