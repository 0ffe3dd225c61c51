import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { OrderStatus } from '../../contract/enums';
import { auditsOf, engineSuite, executionsOf, goldStrategy, preparedGoldCustomers, queueManualLong, startEngineWithQueuedBybit, stopsOf, syncNow, waitFor } from './fixtures';

const DEADLINE_MS = 1_200;
const LATENCY_MS = 300;

describe('entries past their deadline are dropped, open positions keep their stops', () => {
  const engine = engineSuite((ctx, sandbox) => startEngineWithQueuedBybit(ctx, sandbox));

  it('an entry still waiting for the rate limiter at its deadline is never sent, and is audited', async () => {
    const { ctx, sandbox } = engine;
    const strategy = await goldStrategy(ctx);
    const customers = await preparedGoldCustomers(ctx, sandbox, 'bybit', 6);
    sandbox.control.setFaults([{ latencyMs: LATENCY_MS }]);
    const { orderId } = await queueManualLong(ctx, strategy.id, DEADLINE_MS);
    const rows = await waitFor(
      'entries decided',
      async () => {
        const list = await executionsOf(ctx, orderId);
        return list.every((row) => (row.state === 'open' && row.protected_at !== null && row.claimed_by === null) || row.state === 'failed') ? list : undefined;
      },
      30_000,
    );
    sandbox.control.setFaults([]);
    const deadline = (await ctx.deps.db.execute<{ at: Date }>(sql`select deadline_at as at from executions where order_id = ${orderId} limit 1`)).rows[0]!.at;
    const entries = customers.flatMap((c) => sandbox.control.account(c.sandbox!.uid).orders.filter((o) => o.clientOrderId.endsWith('-e')));
    // Sent before the deadline: arrived at the exchange within its latency after it.
    for (const entry of entries) expect(entry.createdAt).toBeLessThanOrEqual(new Date(deadline).getTime() + LATENCY_MS + 250);
    const failed = rows.filter((row) => row.state === 'failed');
    const opened = rows.filter((row) => row.state === 'open');
    expect(opened.length).toBeGreaterThanOrEqual(1);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(entries).toHaveLength(opened.length);
    const audits = await auditsOf(ctx, 'entry_audits', orderId);
    expect(audits.map((a) => a.customer_id).sort()).toEqual(failed.map((row) => row.customer_id).sort());
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
