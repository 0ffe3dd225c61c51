import { beforeAll, describe, expect, it } from 'vitest';
import { AccountType } from '../../contract/enums';
import { SLIPPAGE_SKIP_PREFIX } from '../../server/trading/guards';
import { personWithToken, type Person } from '../helpers/fixtures';
import { auditsOf, engineSuite, executionsOf, exchangeOrdersOf, exchangePositionOf, goldPair, goldStrategy, openPositions, startEngine, waitFor, type TradingCustomer } from './fixtures';

/**
 * The slippage guard (issue 29) against the sandbox's book: with the strategy's maximum set, an entry
 * whose expected fill (ask for a long) is further from the alert's `price` is skipped for every
 * customer, audited with how far it moved, and nothing reaches the exchange; within it, both trade.
 */
describe("slippage guard: the expected fill against the alert's price", () => {
  const suite = engineSuite(startEngine);
  let admin: Person & { token: string };

  beforeAll(async () => {
    admin = await personWithToken(suite.ctx, AccountType.Admin);
  });

  const pair = () => goldPair(suite.ctx, suite.sandbox);
  const exchangeOrders = (customer: TradingCustomer) => exchangeOrdersOf(suite.sandbox, customer);
  const exchangePosition = (customer: TradingCustomer) => exchangePositionOf(suite.sandbox, customer);
  const setGuards = (strategyId: string, maxSlippageBps: number | null) =>
    suite.ctx.api('PUT', `/api/strategy/${strategyId}/guards`, { token: admin.token, body: { maxAlertAgeS: null, maxSlippageBps } });

  it('an alert priced 1 % below the book, with 50 bp allowed: both entries skipped with the reason, no order on either exchange', async () => {
    const customers = await pair();
    const strategy = await goldStrategy(suite.ctx);
    expect((await setGuards(strategy.id, 50)).body.data).toMatchObject({ maxSlippageBps: 50 });
    const last = suite.sandbox.control.prices().BTCUSDT!;
    const alertPrice = Math.round(last / 1.01);
    const answer = await suite.ctx.api('POST', strategy.url, {
      payload: JSON.stringify({ action: 'open', alert_id: 'slipped-1', price: alertPrice }),
      headers: { 'content-type': 'application/json' },
    });
    expect([answer.status, answer.body.data.executions]).toEqual([200, 2]);
    const orderId = answer.body.data.orderId as number;
    const rows = await waitFor('both executions ended', async () => {
      const list = await executionsOf(suite.ctx, orderId);
      return list.every((row) => row.state === 'skipped') ? list : undefined;
    });
    expect(rows).toHaveLength(2);
    const audits = await auditsOf(suite.ctx, 'entry_audits', orderId);
    expect(audits.map((audit) => audit.customer_id).sort()).toEqual(customers.map((customer) => customer.customerId).sort());
    for (const audit of audits) {
      expect(audit.message.startsWith(`${SLIPPAGE_SKIP_PREFIX} `)).toBe(true);
      expect(audit.message).toContain(`from the alert's ${alertPrice}`);
      expect(audit.message).toContain('at most 50 bp');
    }
    for (const customer of customers) {
      expect(exchangeOrders(customer)).toEqual([]);
      expect(exchangePosition(customer)).toBeUndefined();
    }
  });

  it("an alert priced at the book's last price trades for both (the ask a spread above); with the guard cleared, the far price trades too", async () => {
    const customers = await pair();
    const strategy = await goldStrategy(suite.ctx);
    await setGuards(strategy.id, 50);
    const last = suite.sandbox.control.prices().BTCUSDT!;
    const near = await openPositions(suite.ctx, strategy.url, JSON.stringify({ action: 'open', alert_id: 'near-1', price: last }));
    expect(near.rows.map((row) => row.state)).toEqual(['open', 'open']);
    for (const customer of customers) expect(exchangePosition(customer)?.size).toBe(0.01);

    const others = await pair();
    await setGuards(strategy.id, null);
    const far = await openPositions(suite.ctx, strategy.url, JSON.stringify({ action: 'open', alert_id: 'far-1', price: Math.round(last / 1.01) }));
    expect(far.rows.map((row) => row.state)).toEqual(['open', 'open']);
    for (const customer of others) expect(exchangePosition(customer)?.size).toBe(0.01);
  });
});
