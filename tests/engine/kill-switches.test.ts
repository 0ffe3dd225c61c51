import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { server as messages } from '../../contract/messages';
import { PAUSE_SKIP_MESSAGES } from '../../server/trading/pauses';
import { auditsOf, engineSuite, staffOf, executionsOf, exchangeOrdersOf, exchangePositionOf, goldPair, goldStrategy, openPositions, startEngine, waitFor, type TradingCustomer } from './fixtures';

/**
 * Kill switches (issue 29) against the sandbox: a paused strategy, customer or platform answers the
 * alert 200, audits the skip with its reason and places nothing on the exchange; resumed, the same
 * alert trades again. Employees read the switches and cannot change them.
 */
describe('kill switches: pause a strategy, a customer, the platform', () => {
  const suite = engineSuite(startEngine);
  const staff = staffOf(suite);


  const pair = () => goldPair(suite.ctx, suite.sandbox);
  const exchangeOrders = (customer: TradingCustomer) => exchangeOrdersOf(suite.sandbox, customer);
  const exchangePosition = (customer: TradingCustomer) => exchangePositionOf(suite.sandbox, customer);
  const alert = (url: string, alertId: string) =>
    suite.ctx.api('POST', url, { payload: JSON.stringify({ action: 'open', alert_id: alertId }), headers: { 'content-type': 'application/json' } });
  async function alertAuditsOf(strategyId: string): Promise<string[]> {
    const rows = await suite.ctx.deps.db.execute<{ message: string }>(sql`select message from entry_audits where strategy_id = ${strategyId} and order_id is null order by id`);
    return rows.rows.map((row) => row.message);
  }
  async function ordersOf(strategyId: string): Promise<number> {
    const rows = await suite.ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from orders where strategy_id = ${strategyId}`);
    return rows.rows[0]!.n;
  }
  const put = (url: string, token: string, body: unknown) => suite.ctx.api('PUT', url, { token, body });

  it('a paused strategy answers its alerts 200, audits "strategy paused" and places no order; resumed, it trades', async () => {
    const customers = await pair();
    const strategy = await goldStrategy(suite.ctx);
    const paused = await put(`/api/strategy/${strategy.id}/pause`, staff.admin.token, { paused: true });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toEqual({ paused: true, pausedAt: suite.ctx.clock.now().toISOString(), reason: null, resumeAt: null });

    const answer = await alert(strategy.url, 'paused-1');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ action: 'open', orderId: null, executions: 0, duplicate: false });
    expect(await alertAuditsOf(strategy.id)).toEqual([PAUSE_SKIP_MESSAGES.strategy]);
    expect(PAUSE_SKIP_MESSAGES.strategy).toContain('strategy paused');
    expect(await ordersOf(strategy.id)).toBe(0);
    for (const customer of customers) expect(exchangeOrders(customer)).toEqual([]);

    expect((await put(`/api/strategy/${strategy.id}/pause`, staff.admin.token, { paused: false })).body.data).toEqual({ paused: false, pausedAt: null, reason: null, resumeAt: null });
    const { rows } = await openPositions(suite.ctx, strategy.url, JSON.stringify({ action: 'open', alert_id: 'resumed-1' }));
    expect(rows.map((row) => row.state)).toEqual(['open', 'open']);
    for (const customer of customers) expect(exchangePosition(customer)?.size).toBe(0.01);

    // Paused again, a close alert still closes: the switch stops entries, never exits.
    await put(`/api/strategy/${strategy.id}/pause`, staff.admin.token, { paused: true });
    const close = await suite.ctx.api('POST', strategy.url, { payload: 'close', headers: { 'content-type': 'text/plain' } });
    expect([close.status, close.body.data.closing]).toEqual([200, 2]);
    for (const customer of customers) await waitFor('the position closed on the exchange', async () => exchangePosition(customer) === undefined);
    await put(`/api/strategy/${strategy.id}/pause`, staff.admin.token, { paused: false });
  });

  it("a paused customer's entries are skipped with \"customer paused\"; the others trade", async () => {
    const [paused, running] = await pair();
    const strategy = await goldStrategy(suite.ctx);
    expect((await put(`/api/customer/${paused!.customerId}/pause`, staff.admin.token, { paused: true })).body.data.paused).toBe(true);

    const answer = await alert(strategy.url, 'customer-paused-1');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ executions: 1, skipped: 1 });
    const orderId = answer.body.data.orderId as number;
    expect(await auditsOf(suite.ctx, 'entry_audits', orderId)).toEqual([{ customer_id: paused!.customerId, message: PAUSE_SKIP_MESSAGES.customer }]);
    expect((await executionsOf(suite.ctx, orderId)).map((row) => row.customer_id)).toEqual([running!.customerId]);
    await waitFor('the running customer filled', async () => exchangePosition(running!));
    expect(exchangeOrders(paused!)).toEqual([]);
    expect(exchangePosition(running!)?.size).toBe(0.01);
    expect((await put(`/api/customer/${paused!.customerId}/pause`, staff.admin.token, { paused: false })).body.data.paused).toBe(false);
  });

  it('the platform pause needs the mailed code; paused, every entry alert is skipped with "platform paused"', async () => {
    const customers = await pair();
    const strategy = await goldStrategy(suite.ctx);
    expect((await put('/api/platform/pause', staff.admin.token, { paused: true, code: '000000' })).status).toBe(400);
    expect((await suite.ctx.api('POST', '/api/platform/pause/code', { token: staff.admin.token })).status).toBe(200);
    const code = suite.ctx.lastCode(staff.admin.email);
    const wrong = code === '111111' ? '222222' : '111111';
    const refused = await put('/api/platform/pause', staff.admin.token, { paused: true, code: wrong });
    expect([refused.status, refused.body.error?.message]).toEqual([400, messages.invalidCode]);
    expect((await suite.ctx.api('GET', '/api/platform/pause', { token: staff.admin.token })).body.data.paused).toBe(false);
    expect((await put('/api/platform/pause', staff.admin.token, { paused: true, code })).body.data.paused).toBe(true);
    // The code is spent: it confirms one change.
    expect((await put('/api/platform/pause', staff.admin.token, { paused: false, code })).status).toBe(400);

    const answer = await alert(strategy.url, 'platform-paused-1');
    expect([answer.status, answer.body.data.orderId]).toEqual([200, null]);
    expect(await alertAuditsOf(strategy.id)).toEqual([PAUSE_SKIP_MESSAGES.platform]);
    expect(await ordersOf(strategy.id)).toBe(0);
    for (const customer of customers) expect(exchangeOrders(customer)).toEqual([]);

    const again = await suite.ctx.api('POST', '/api/platform/pause/code', { token: staff.admin.token });
    expect(again.status).toBe(429); // one code per 30 s, as for sign-in codes
    suite.ctx.clock.advance(31_000);
    expect((await suite.ctx.api('POST', '/api/platform/pause/code', { token: staff.admin.token })).status).toBe(200);
    const resumed = await put('/api/platform/pause', staff.admin.token, { paused: false, code: suite.ctx.lastCode(staff.admin.email) });
    expect(resumed.body.data).toEqual({ paused: false, pausedAt: null, reason: null, resumeAt: null });
    const { rows } = await openPositions(suite.ctx, strategy.url, JSON.stringify({ action: 'open', alert_id: 'platform-resumed-1' }));
    expect(rows.map((row) => row.state)).toEqual(['open', 'open']);
  });

  it('employees read every switch and change none (403); unknown records are 404', async () => {
    const [customer] = await pair();
    const strategy = await goldStrategy(suite.ctx);
    await put(`/api/strategy/${strategy.id}/pause`, staff.admin.token, { paused: true });
    const read = await suite.ctx.api('GET', `/api/strategy/${strategy.id}/pause`, { token: staff.employee.token });
    expect([read.status, read.body.data.paused]).toEqual([200, true]);
    expect((await suite.ctx.api('GET', `/api/customer/${customer!.customerId}/pause`, { token: staff.employee.token })).body.data).toEqual({ paused: false, pausedAt: null, reason: null, resumeAt: null });
    expect((await suite.ctx.api('GET', '/api/platform/pause', { token: staff.employee.token })).body.data.paused).toBe(false);
    for (const [url, body] of [
      [`/api/strategy/${strategy.id}/pause`, { paused: false }],
      [`/api/customer/${customer!.customerId}/pause`, { paused: true }],
      ['/api/platform/pause', { paused: true, code: '123456' }],
    ] as const) {
      expect((await put(url, staff.employee.token, body)).status).toBe(403);
    }
    expect((await suite.ctx.api('POST', '/api/platform/pause/code', { token: staff.employee.token })).status).toBe(403);
    expect((await suite.ctx.api('GET', `/api/strategy/${strategy.id}/pause`, { token: staff.admin.token })).body.data.paused).toBe(true);
    expect((await suite.ctx.api('GET', `/api/customer/${customer!.customerId}/pause`, { token: staff.admin.token })).body.data.paused).toBe(false);
    expect((await put('/api/strategy/NOPE404/pause', staff.admin.token, { paused: true })).status).toBe(404);
    expect((await put('/api/customer/999999/pause', staff.admin.token, { paused: true })).status).toBe(404);
  });
});
