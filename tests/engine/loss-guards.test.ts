import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CustomerGuards } from '../../contract/api/guards';
import { AccountType, AmountType, CustomerGroup } from '../../contract/enums';
import { PAUSE_SKIP_MESSAGES } from '../../server/trading/pauses';
import { personWithToken, type Person } from '../helpers/fixtures';
import { auditsOf, engineSuite, executionsOf, exchangePositionOf, insertStrategy, openPositions, startEngine, tradingCustomer, waitFor, type TradingCustomer } from './fixtures';

/**
 * Loss guards (issue 29) against the sandbox: a customer's losses of the day reaching their daily loss limit,
 * or their equity falling past the maximum drawdown from its high, pause their copying: the next entry is
 * skipped "customer paused" and nothing reaches their exchange, staff read why, the staff log keeps it;
 * the pause ends the next day or when an admin resumes it, as the guard says.
 */
describe('loss guards: daily loss limit and maximum drawdown pause a customer', () => {
  const suite = engineSuite(startEngine);
  let admin: Person & { token: string };

  beforeAll(async () => {
    admin = await personWithToken(suite.ctx, AccountType.Admin);
  });

  const NONE: CustomerGuards = { maxNotionalUsdt: null, maxLeverage: null, maxOpenPositions: null, minFreeBalanceUsdt: null, dailyLossLimitUsdt: null, maxDrawdownPct: null, lossGuardResume: 'staff' };
  async function guard(customer: TradingCustomer, guards: Partial<CustomerGuards>): Promise<void> {
    expect((await suite.ctx.api('PUT', `/api/customer/${customer.customerId}/guards`, { token: admin.token, body: { ...NONE, ...guards } })).status).toBe(200);
  }
  const pauseOf = async (customer: TradingCustomer) => (await suite.ctx.api('GET', `/api/customer/${customer.customerId}/pause`, { token: admin.token })).body.data;
  const alert = (url: string, alertId: string) =>
    suite.ctx.api('POST', url, { payload: JSON.stringify({ action: 'open', alert_id: alertId }), headers: { 'content-type': 'application/json' } });
  async function staffLog(customer: TradingCustomer): Promise<Array<{ action: string; actor: number | null }>> {
    const rows = await suite.ctx.deps.db.execute<{ action: string; actor: number | null }>(
      sql`select action, actor_account_id actor from staff_actions where target_type = 'customer' and target_id = ${String(customer.customerId)} and action in ('customer.pause', 'customer.resume') order by id`,
    );
    return rows.rows;
  }
  /** A fresh Vip customer alone on a strategy of 0.01 BTC without a stop. */
  async function vipAlone(exchange: 'bybit' | 'bitget'): Promise<{ customer: TradingCustomer; url: string }> {
    await suite.ctx.deps.db.execute(sql`update customers set "group" = ${CustomerGroup.Occasion} where "group" = ${CustomerGroup.Vip}`);
    const customer = await tradingCustomer(suite.ctx, suite.sandbox, { exchange, group: CustomerGroup.Vip });
    const strategy = await insertStrategy(suite.ctx, { tp: [{ target: 5, volume: 100 }], groups: [{ group: CustomerGroup.Vip, investType: AmountType.Quantity, amount: 0.01 }] });
    return { customer, url: strategy.url };
  }

  it("the day's losses reaching the daily limit pause the customer until the next day: the next entry is skipped, then trades again", async () => {
    const { customer, url } = await vipAlone('bybit');
    await guard(customer, { dailyLossLimitUsdt: 5, lossGuardResume: 'next_day' });
    const nextMidnight = () => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1)).toISOString();
    const midnights = [nextMidnight()];
    await openPositions(suite.ctx, url, JSON.stringify({ action: 'open', alert_id: 'loss-1' }));
    suite.sandbox.control.setPrice('BTCUSDT', 59000);
    expect((await suite.ctx.api('POST', url, { payload: 'close', headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    const state = await waitFor('the customer paused', async () => {
      const read = await pauseOf(customer);
      return read.paused ? read : undefined;
    });
    suite.sandbox.control.setPrice('BTCUSDT', 60000);
    expect(state.reason).toMatch(/^Daily loss limit reached: 10\.\d\d USDT lost today \(net of fees and funding\), limit 5 USDT$/);
    midnights.push(nextMidnight());
    expect(midnights).toContain(state.resumeAt);
    expect(await staffLog(customer)).toEqual([{ action: 'customer.pause', actor: null }]);

    const skipped = await alert(url, 'loss-2');
    expect(skipped.body.data).toMatchObject({ executions: 0, skipped: 1 });
    expect(await auditsOf(suite.ctx, 'entry_audits', skipped.body.data.orderId as number)).toEqual([{ customer_id: customer.customerId, message: PAUSE_SKIP_MESSAGES.customer }]);
    expect(exchangePositionOf(suite.sandbox, customer)).toBeUndefined();

    // The next day begins: the pause's time is up, and the next entry trades.
    const dayOver = new Date(suite.ctx.clock.now().getTime() - 1000).toISOString();
    await suite.ctx.deps.db.execute(sql`update trading_pauses set resume_at = ${dayOver} where customer_id = ${customer.customerId}`);
    expect((await pauseOf(customer)).paused).toBe(false);
    const { orderId } = await openPositions(suite.ctx, url, JSON.stringify({ action: 'open', alert_id: 'loss-3' }));
    expect((await executionsOf(suite.ctx, orderId)).map((row) => row.state)).toEqual(['open']);
    expect(exchangePositionOf(suite.sandbox, customer)?.size).toBe(0.01);
  });

  it('equity falling past the maximum drawdown from its high pauses the customer until an admin resumes; the high restarts then', async () => {
    const { customer, url } = await vipAlone('bitget');
    await guard(customer, { maxDrawdownPct: 10 });
    const sync = async () => expect((await suite.ctx.api('POST', '/api/health/sync', { token: admin.token, body: { customerId: customer.customerId } })).body.data).toMatchObject({ walletsUpdated: 1 });
    await sync();
    expect((await pauseOf(customer)).paused).toBe(false);
    suite.sandbox.control.fund(customer.sandbox!.uid, -15_000);
    await sync();
    const state = await pauseOf(customer);
    expect(state).toMatchObject({ paused: true, resumeAt: null, reason: 'Maximum drawdown reached: equity 85000.00 USDT is 15.0 % below its high of 100000.00 USDT, limit 10 %' });
    expect((await alert(url, 'drawdown-1')).body.data).toMatchObject({ executions: 0, skipped: 1 });
    expect(exchangePositionOf(suite.sandbox, customer)).toBeUndefined();

    expect((await suite.ctx.api('PUT', `/api/customer/${customer.customerId}/pause`, { token: admin.token, body: { paused: false } })).body.data.paused).toBe(false);
    await sync();
    expect((await pauseOf(customer)).paused).toBe(false);
    expect(await staffLog(customer)).toEqual([
      { action: 'customer.pause', actor: null },
      { action: 'customer.resume', actor: admin.accountId },
    ]);
    const { orderId } = await openPositions(suite.ctx, url, JSON.stringify({ action: 'open', alert_id: 'drawdown-2' }));
    expect((await executionsOf(suite.ctx, orderId)).map((row) => row.state)).toEqual(['open']);
  });

  it('a customer reads their own pause, and no one else’s', async () => {
    const own = await personWithToken(suite.ctx, AccountType.Customer);
    const other = await personWithToken(suite.ctx, AccountType.Customer);
    const read = await suite.ctx.api('GET', `/api/customer/${own.roleId}/pause`, { token: own.token });
    expect([read.status, read.body.data]).toEqual([200, { paused: false, pausedAt: null, reason: null, resumeAt: null }]);
    expect((await suite.ctx.api('GET', `/api/customer/${other.roleId}/pause`, { token: own.token })).status).toBe(404);
    expect((await suite.ctx.api('PUT', `/api/customer/${own.roleId}/pause`, { token: own.token, body: { paused: true } })).status).toBe(403);
  });
});
