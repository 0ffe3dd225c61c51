import { describe, expect, it } from 'vitest';
import type { ExecutionQuality } from '../../contract/api/quality';
import { AccountType } from '../../contract/enums';
import { personWithToken } from '../helpers/fixtures';
import { engineSuite, goldPair, goldStrategy, openPositions, startEngine, type TradingCustomer, staffOf } from './fixtures';

/**
 * Execution quality (issue 29) against the sandbox: every copy of an alert carries when it was sent,
 * acknowledged and filled, and how far its fill was from the alert's price and from the alert's first fill,
 * read back through the API staff use; per strategy, the percentiles, fill rate and skips by reason.
 */
describe('execution quality per copy and per strategy', () => {
  const suite = engineSuite(startEngine);
  const staff = staffOf(suite);


  const get = (url: string, token = staff.employee.token) => suite.ctx.api('GET', url, { token });
  const filledAt = (customer: TradingCustomer) => suite.sandbox.control.account(customer.sandbox!.uid).orders.find((order) => order.filledQty > 0)!.avgPrice;

  it("an order's copies: sent, acknowledged and filled in that order, and the fill's slippage from the alert's price", async () => {
    const customers = await goldPair(suite.ctx, suite.sandbox);
    const strategy = await goldStrategy(suite.ctx);
    const { orderId } = await openPositions(suite.ctx, strategy.url, JSON.stringify({ action: 'open', alert_id: 'quality-1', price: 59940 }));

    const answer = await get(`/api/order/${orderId}/quality`);
    expect(answer.status).toBe(200);
    const rows = answer.body.data as ExecutionQuality[];
    expect(rows.map((row) => row.customerId).sort()).toEqual(customers.map((c) => c.customerId).sort());
    for (const row of rows) {
      const customer = customers.find((c) => c.customerId === row.customerId)!;
      const price = filledAt(customer);
      expect(row.entryPrice).toBe(price);
      expect(row.sentMs).not.toBeNull();
      expect(row.sentMs!).toBeGreaterThanOrEqual(0);
      expect(row.ackMs!).toBeGreaterThanOrEqual(row.sentMs!);
      expect(row.fillMs!).toBeGreaterThanOrEqual(row.ackMs!);
      // A long that filled above the alert's price paid more: positive.
      expect(row.slippageVsAlertBps).toBeCloseTo(((price - 59940) / 59940) * 10_000, 2);
    }
    const first = rows.reduce((a, b) => (a.fillMs! <= b.fillMs! ? a : b));
    for (const row of rows) expect(row.slippageVsFirstFillBps).toBeCloseTo(((row.entryPrice! - first.entryPrice!) / first.entryPrice!) * 10_000, 2);

    const quality = await get(`/api/strategy/${strategy.id}/quality?days=7`);
    expect(quality.status).toBe(200);
    expect(quality.body.data).toMatchObject({ days: 7, executions: 2, filled: 2, fillRate: 1, skipped: [] });
    expect(quality.body.data.p95AckMs).toBeGreaterThanOrEqual(quality.body.data.p50AckMs);
    expect(quality.body.data.meanSlippageBps).toBeCloseTo((rows[0]!.slippageVsAlertBps! + rows[1]!.slippageVsAlertBps!) / 2, 1);
    expect(quality.body.data.daily).toEqual([expect.objectContaining({ executions: 2, day: rows[0]!.alertAt.slice(0, 10) })]);
    const exported = await get(`/api/strategy/${strategy.id}/quality/executions?days=7`);
    expect((exported.body.data as ExecutionQuality[]).map((row) => row.executionId).sort()).toEqual(rows.map((row) => row.executionId).sort());
  });

  it('skipped copies count by reason; bad input, unknown records and customers are refused', async () => {
    const [paused] = await goldPair(suite.ctx, suite.sandbox);
    const strategy = await goldStrategy(suite.ctx);
    await suite.ctx.api('PUT', `/api/customer/${paused!.customerId}/pause`, { token: staff.admin.token, body: { paused: true } });
    await openPositions(suite.ctx, strategy.url, JSON.stringify({ action: 'open', alert_id: 'quality-2' }));
    const quality = await get(`/api/strategy/${strategy.id}/quality`);
    expect(quality.body.data).toMatchObject({ days: 30, executions: 1, filled: 1, skipped: [{ reason: 'customer paused', count: 1 }] });
    // No price in the alert: no slippage from it.
    expect(quality.body.data.meanSlippageBps).toBeNull();
    await suite.ctx.api('PUT', `/api/customer/${paused!.customerId}/pause`, { token: staff.admin.token, body: { paused: false } });

    for (const bad of ['0', '366', 'x', '1.5']) {
      const answer = await get(`/api/strategy/${strategy.id}/quality?days=${bad}`);
      expect([answer.status, answer.body.error?.message]).toEqual([400, 'query.days: days must be a whole number from 1 to 365']);
    }
    expect((await get('/api/strategy/NOPE404/quality')).status).toBe(404);
    expect((await get('/api/order/99999999/quality')).status).toBe(404);
    const customer = await personWithToken(suite.ctx, AccountType.Customer);
    expect((await get(`/api/strategy/${strategy.id}/quality`, customer.token)).status).toBe(403);
  });
});
