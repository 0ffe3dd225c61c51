import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strategyGuardsMessages } from '../../contract/api/guards';
import { AccountType, AmountType, CustomerGroup } from '../../contract/enums';
import { findWebhookStrategy } from '../../server/trading/intake';
import { insertStrategy, waitFor } from '../engine/fixtures';
import { personWithToken, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

/**
 * A strategy's guard (issue 29): the maximum age of its entry alerts, read by staff, set by admins,
 * validated with one message, logged, and applied to the next alert instead of MAX_ALERT_AGE_MS.
 */
describe('strategy guards: the maximum alert age', () => {
  let ctx: TestContext;
  let admin: Person & { token: string };
  let employee: Person & { token: string };
  let customer: Person & { token: string };
  const groups = [{ group: CustomerGroup.Occasion, investType: AmountType.Quantity, amount: 0.01 }];

  beforeAll(async () => {
    ctx = await createTestContext({ config: {} });
    admin = await personWithToken(ctx, AccountType.Admin);
    employee = await personWithToken(ctx, AccountType.Employee);
    customer = await personWithToken(ctx, AccountType.Customer);
  });
  afterAll(() => ctx?.close());

  const guardsUrl = (id: string) => `/api/strategy/${id}/guards`;
  const put = (id: string, token: string, body: unknown) => ctx.api('PUT', guardsUrl(id), { token, body });
  /** Sets the maximum alert age, no slippage limit. */
  const putAge = (id: string, token: string, maxAlertAgeS: number | null) => put(id, token, { maxAlertAgeS, maxSlippageBps: null });
  /** An entry alert stamped `ageS` seconds ago by the test server's clock. */
  const alertAged = (url: string, alertId: string, ageS: number) =>
    ctx.api('POST', url, {
      payload: JSON.stringify({ action: 'open', alert_id: alertId, timestamp: ctx.clock.now().getTime() - ageS * 1000 }),
      headers: { 'content-type': 'application/json' },
    });
  /** The webhook snapshot has heard of the change (the strategies trigger's NOTIFY). */
  const heard = (token: string, maxAlertAgeS: number | null) =>
    waitFor(`the webhook snapshot holds maxAlertAgeS ${maxAlertAgeS}`, async () => (await findWebhookStrategy(ctx.deps, token))?.maxAlertAgeS === maxAlertAgeS);
  async function lastAudit(strategyId: string): Promise<string | undefined> {
    const rows = await ctx.deps.db.execute<{ message: string }>(sql`select message from entry_audits where strategy_id = ${strategyId} order by id desc limit 1`);
    return rows.rows[0]?.message;
  }

  it('staff read the default; an admin sets a longer age and an alert older than the default is taken', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    const defaultS = Math.round(ctx.config.trading.maxAlertAgeMs / 1000);
    const read = await ctx.api('GET', guardsUrl(strategy.id), { token: employee.token });
    expect([read.status, read.body.data]).toEqual([200, { maxAlertAgeS: null, maxSlippageBps: null, defaultMaxAlertAgeS: defaultS }]);

    const late = await alertAged(strategy.url, 'default-late', defaultS + 30);
    expect([late.status, late.body.data.orderId]).toEqual([200, null]);
    expect(await lastAudit(strategy.id)).toMatch(new RegExp(`arrived more than ${defaultS} s late; no order was placed$`));

    const set = await putAge(strategy.id, admin.token, defaultS + 600);
    expect([set.status, set.body.data]).toEqual([200, { maxAlertAgeS: defaultS + 600, maxSlippageBps: null, defaultMaxAlertAgeS: defaultS }]);
    await heard(strategy.token, defaultS + 600);
    const taken = await alertAged(strategy.url, 'longer-ok', defaultS + 30);
    expect(taken.status).toBe(200);
    expect(taken.body.data.orderId).toEqual(expect.any(Number));

    const log = await ctx.deps.db.execute<{ action: string; actor: number; details: unknown }>(
      sql`select action, actor_account_id as actor, details from staff_actions where target_type = 'strategy' and target_id = ${strategy.id}`,
    );
    expect(log.rows).toEqual([{ action: 'strategy.guards', actor: admin.accountId, details: { maxAlertAgeS: { from: null, to: defaultS + 600 } } }]);
  });

  it('a shorter age skips an alert the default would take; cleared, the default applies again', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    expect((await putAge(strategy.id, admin.token, 5)).status).toBe(200);
    await heard(strategy.token, 5);
    const skipped = await alertAged(strategy.url, 'short-late', 20);
    expect([skipped.status, skipped.body.data.orderId, skipped.body.data.duplicate]).toEqual([200, null, false]);
    expect(await lastAudit(strategy.id)).toMatch(/arrived more than 5 s late; no order was placed$/);
    const fresh = await alertAged(strategy.url, 'short-fresh', 1);
    expect(fresh.body.data.orderId).toEqual(expect.any(Number));

    const cleared = await putAge(strategy.id, admin.token, null);
    expect(cleared.body.data.maxAlertAgeS).toBeNull();
    await heard(strategy.token, null);
    const again = await alertAged(strategy.url, 'default-ok', 20);
    expect(again.body.data.orderId).toEqual(expect.any(Number));
  });

  it('refuses bad values with the one message, unknown strategies with 404, and anyone but an admin; nothing changes', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    expect((await put(strategy.id, admin.token, { maxAlertAgeS: 90, maxSlippageBps: 25 })).status).toBe(200);
    const refusals: Array<readonly [field: 'maxAlertAgeS' | 'maxSlippageBps', bad: unknown, message: string]> = [
      ...[0, -5, 1.5, 86_401, '60', true, undefined].map((bad) => ['maxAlertAgeS', bad, strategyGuardsMessages.maxAlertAge] as const),
      ...[0, 2.5, 10_001, '30', undefined].map((bad) => ['maxSlippageBps', bad, strategyGuardsMessages.maxSlippage] as const),
    ];
    for (const [field, bad, message] of refusals) {
      const body: Record<string, unknown> = { maxAlertAgeS: 60, maxSlippageBps: 10 };
      if (bad === undefined) delete body[field];
      else body[field] = bad;
      const answer = await put(strategy.id, admin.token, body);
      expect(answer.status, `${field} ${String(bad)}`).toBe(400);
      expect(answer.body.error?.message).toBe(`body.${field}: ${message}`);
    }
    expect((await putAge('NO-SUCH-STRATEGY', admin.token, 30)).status).toBe(404);
    expect((await ctx.api('GET', guardsUrl('NO-SUCH-STRATEGY'), { token: admin.token })).status).toBe(404);
    expect((await putAge(strategy.id, employee.token, 30)).status).toBe(403);
    expect((await putAge(strategy.id, customer.token, 30)).status).toBe(403);
    expect((await ctx.api('GET', guardsUrl(strategy.id), { token: customer.token })).status).toBe(403);
    expect((await ctx.api('GET', guardsUrl(strategy.id), { token: admin.token })).body.data).toMatchObject({ maxAlertAgeS: 90, maxSlippageBps: 25 });
  });
});
