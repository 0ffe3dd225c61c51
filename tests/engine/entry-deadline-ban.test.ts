import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sharedExchangeLimiter } from '../../server/trading/exchanges/index';
import { auditsOf, engineSuite, executionsOf, goldStrategy, preparedGoldCustomers, queueManualLong, startEngine, tradingCustomer, waitFor } from './fixtures';
import { CustomerGroup } from '../../contract/enums';

const DEADLINE_MS = 20_000;
const dropped = `The entry could not be placed within ${DEADLINE_MS / 1000} s of the alert, so it was dropped (a late entry is worse than none)`;

describe('an entry past its deadline is dropped and audited at its deadline, ban or not', () => {
  const engine = engineSuite((ctx, sandbox) => startEngine(ctx, sandbox));

  it('while Bybit bans the address for longer than the entries have: every entry is dropped and audited by its deadline, none is sent, none waits for the ban', async () => {
    const { ctx, sandbox } = engine;
    const strategy = await goldStrategy(ctx);
    // Accounts whose settings are known, and one whose leverage must still be set first: no request of
    // an entry, the price read it is sized by included, waits for the ban.
    const customers = [...(await preparedGoldCustomers(ctx, sandbox, 'bybit', 3)), await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold })];
    // This process heard Bybit's 403: ten minutes in which nothing is sent to Bybit from this address.
    expect(sharedExchangeLimiter.reportAddressBan('bybit', ctx.deps.exchanges.egress, 'HTTP 403')).toBe(true);
    const ban = sharedExchangeLimiter.bans.current('bybit', ctx.deps.exchanges.egress)!;
    const { orderId } = await queueManualLong(ctx, strategy.id, DEADLINE_MS);
    const deadline = (await ctx.deps.db.execute<{ at: Date }>(sql`select max(deadline_at) as at from executions where order_id = ${orderId}`)).rows[0]!.at;
    expect(new Date(deadline).getTime()).toBeLessThan(ban.until);

    // Waiting for the outcome, not for a time: the ban lasts ten minutes, far longer than this wait.
    const rows = await waitFor('every entry decided', async () => {
      const list = await executionsOf(ctx, orderId);
      return list.every((row) => row.state !== 'pending') ? list : undefined;
    }, DEADLINE_MS + 30_000);
    expect(rows.map((row) => [row.state, row.last_error])).toEqual(customers.map(() => ['failed', dropped]));
    const audits = await ctx.deps.db.execute<{ customer_id: number; message: string; at: Date }>(
      sql`select customer_id, message, datetime_inserted as at from entry_audits where order_id = ${orderId} order by customer_id`,
    );
    expect(audits.rows.map((a) => [a.customer_id, a.message])).toEqual(customers.map((c) => [c.customerId, dropped]).sort((a, b) => Number(a[0]) - Number(b[0])));
    for (const audit of audits.rows) expect(new Date(audit.at).getTime()).toBeLessThanOrEqual(new Date(deadline).getTime());
    expect(await auditsOf(ctx, 'entry_audits', orderId)).toHaveLength(customers.length);
    // Nothing reached the exchange.
    for (const customer of customers) expect(sandbox.control.account(customer.sandbox!.uid).orders).toEqual([]);
  }, 120_000);
});
