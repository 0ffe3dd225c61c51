import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { OrderStatus } from '../../contract/enums';
import { DEFAULT_EGRESS } from '../../server/config';
import { DEFAULT_CEILINGS, ExchangeRateLimiter } from '../../server/trading/exchanges/rate-limiter';
import { auditsOf, engineSuite, executionsOf, goldStrategy, preparedGoldCustomers, queueManualLong, startEngineWithQueuedBybit, stopsOf, syncNow, waitFor, type TradingCustomer } from './fixtures';

/** Long enough for the Bybit entries to be placed however slow the machine; the Bitget ones wait it out. */
const DEADLINE_MS = 5_000;

describe('entries past their deadline are dropped, open positions keep their stops', () => {
  // One Bitget request in flight at a time: the test holds that place, so Bitget's entries wait for the limiter.
  const limiter = new ExchangeRateLimiter({ ...DEFAULT_CEILINGS, bitget: { ...DEFAULT_CEILINGS.bitget, maxInFlight: 1 } });
  const engine = engineSuite((ctx, sandbox) => startEngineWithQueuedBybit(ctx, sandbox, {}, limiter));

  it('an entry still waiting for the rate limiter at its deadline is never sent, and is audited', async () => {
    const { ctx, sandbox } = engine;
    const strategy = await goldStrategy(ctx);
    const bybit = await preparedGoldCustomers(ctx, sandbox, 'bybit', 3);
    const bitget = await preparedGoldCustomers(ctx, sandbox, 'bitget', 3);
    const customers = [...bybit, ...bitget];
    const entriesOf = (list: TradingCustomer[]) => list.flatMap((c) => sandbox.control.account(c.sandbox!.uid).orders.filter((o) => o.clientOrderId.endsWith('-e')));
    const giveBitgetBack = await limiter.acquire({ exchange: 'bitget', egress: DEFAULT_EGRESS, write: undefined });
    let orderId: number;
    try {
      ({ orderId } = await queueManualLong(ctx, strategy.id, DEADLINE_MS));
      const deadline = (await ctx.deps.db.execute<{ at: Date }>(sql`select deadline_at as at from executions where order_id = ${orderId} limit 1`)).rows[0]!.at;
      await waitFor('the Bybit positions open and protected', async () =>
        (await executionsOf(ctx, orderId)).filter((row) => row.state === 'open' && row.protected_at !== null).length === bybit.length, DEADLINE_MS + 30_000);
      // The Bitget entries are still waiting for Bitget's one request place when their deadline passes.
      await waitFor('the deadline passed', async () => Date.now() > new Date(deadline).getTime() + 1, DEADLINE_MS + 30_000);
    } finally {
      giveBitgetBack();
    }
    const rows = await waitFor(
      'entries decided',
      async () => {
        const list = await executionsOf(ctx, orderId);
        return list.every((row) => (row.state === 'open' && row.protected_at !== null && row.claimed_by === null) || row.state === 'failed') ? list : undefined;
      },
      30_000,
    );
    // The Bybit entries went out; the Bitget ones were still waiting for Bitget's one request place at their deadline.
    expect(rows.map((row) => [row.customer_id, row.state])).toEqual(customers.map((c) => [c.customerId, c.exchange === 'bybit' ? 'open' : 'failed']));
    expect(entriesOf(bybit)).toHaveLength(3);
    expect(entriesOf(bitget)).toEqual([]);
    const opened = rows.filter((row) => row.state === 'open');
    const audits = await auditsOf(ctx, 'entry_audits', orderId);
    expect(audits.map((a) => a.customer_id).sort()).toEqual(bitget.map((c) => c.customerId).sort());
    for (const audit of audits) expect(audit.message).toBe(`The entry could not be placed within ${DEADLINE_MS / 1000} s of the alert, so it was dropped (a late entry is worse than none)`);

    // Every request from this address refused now (as during a ban): the stops are on the exchange and still close the positions.
    const holders = customers.filter((c) => opened.some((row) => row.customer_id === c.customerId));
    for (const holder of holders) expect(stopsOf(sandbox.control.account(holder.sandbox!.uid)).map((s) => [s.qty, s.price])).toEqual([[0.01, 59400]]);
    sandbox.control.setFaults([{ rateLimitShare: 1 }]);
    sandbox.control.setPrice('BTCUSDT', 59300);
    for (const holder of holders) expect(sandbox.control.account(holder.sandbox!.uid).positions.filter((p) => p.size > 0)).toEqual([]);
    sandbox.control.setFaults([]);
    await syncNow(ctx, engine.dispatcher);
    await waitFor('order settled', async () => Number((await ctx.deps.db.execute<{ status: number }>(sql`select status from orders where id = ${orderId}`)).rows[0]!.status) === OrderStatus.Loss);
  });
});
