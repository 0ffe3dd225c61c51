import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerGuardsMessages, type CustomerGuards } from '../../contract/api/guards';
import { AccountType } from '../../contract/enums';
import { personWithToken, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

/**
 * A customer's guards (issue 29) through the API: staff read them, admins set them, each value checked
 * with its one message, every change in the staff log; the engine's use of them is
 * tests/engine/customer-guards.test.ts.
 */
describe('customer guards: maximum notional, leverage and open positions, minimum free balance, loss guards', () => {
  let ctx: TestContext;
  let admin: Person & { token: string };
  let employee: Person & { token: string };
  let customer: Person & { token: string };

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await personWithToken(ctx, AccountType.Admin);
    employee = await personWithToken(ctx, AccountType.Employee);
    customer = await personWithToken(ctx, AccountType.Customer);
  });
  afterAll(() => ctx?.close());

  const NONE: CustomerGuards = { maxNotionalUsdt: null, maxLeverage: null, maxOpenPositions: null, minFreeBalanceUsdt: null, dailyLossLimitUsdt: null, maxDrawdownPct: null, lossGuardResume: 'staff' };
  const url = (id: number) => `/api/customer/${id}/guards`;
  const put = (id: number, token: string, body: unknown) => ctx.api('PUT', url(id), { token, body });
  const stored = async (id: number) =>
    (await ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from customer_guards where customer_id = ${id}`)).rows[0]!.n;

  it('staff read none at first; an admin sets them, the staff log holds each change; cleared, none is stored', async () => {
    const target = await personWithToken(ctx, AccountType.Customer);
    const read = await ctx.api('GET', url(target.roleId), { token: employee.token });
    expect([read.status, read.body.data]).toEqual([200, NONE]);

    const guards: CustomerGuards = { maxNotionalUsdt: 2_500, maxLeverage: 5, maxOpenPositions: 3, minFreeBalanceUsdt: 100, dailyLossLimitUsdt: 500, maxDrawdownPct: 20, lossGuardResume: 'next_day' };
    const set = await put(target.roleId, admin.token, guards);
    expect([set.status, set.body.data]).toEqual([200, guards]);
    expect((await ctx.api('GET', url(target.roleId), { token: employee.token })).body.data).toEqual(guards);

    const lowered = { ...guards, maxLeverage: 3, minFreeBalanceUsdt: null };
    expect((await put(target.roleId, admin.token, lowered)).body.data).toEqual(lowered);
    expect((await put(target.roleId, admin.token, NONE)).body.data).toEqual(NONE);
    expect(await stored(target.roleId)).toBe(0);
    expect((await ctx.api('GET', url(target.roleId), { token: admin.token })).body.data).toEqual(NONE);

    const log = await ctx.deps.db.execute<{ action: string; actor: number; details: unknown }>(
      sql`select action, actor_account_id as actor, details from staff_actions where target_type = 'customer' and target_id = ${String(target.roleId)} order by id`,
    );
    expect(log.rows).toEqual([
      {
        action: 'customer.guards',
        actor: admin.accountId,
        details: {
          maxNotionalUsdt: { from: null, to: 2_500 },
          maxLeverage: { from: null, to: 5 },
          maxOpenPositions: { from: null, to: 3 },
          minFreeBalanceUsdt: { from: null, to: 100 },
          dailyLossLimitUsdt: { from: null, to: 500 },
          maxDrawdownPct: { from: null, to: 20 },
          lossGuardResume: { from: 'staff', to: 'next_day' },
        },
      },
      { action: 'customer.guards', actor: admin.accountId, details: { maxLeverage: { from: 5, to: 3 }, minFreeBalanceUsdt: { from: 100, to: null } } },
      {
        action: 'customer.guards',
        actor: admin.accountId,
        details: {
          maxNotionalUsdt: { from: 2_500, to: null },
          maxLeverage: { from: 3, to: null },
          maxOpenPositions: { from: 3, to: null },
          dailyLossLimitUsdt: { from: 500, to: null },
          maxDrawdownPct: { from: 20, to: null },
          lossGuardResume: { from: 'next_day', to: 'staff' },
        },
      },
    ]);
  });

  it('refuses bad values with the one message, unknown customers with 404, and anyone but an admin; nothing changes', async () => {
    const target = await personWithToken(ctx, AccountType.Customer);
    const kept: CustomerGuards = { maxNotionalUsdt: 1_000, maxLeverage: 10, maxOpenPositions: 2, minFreeBalanceUsdt: 50, dailyLossLimitUsdt: 300, maxDrawdownPct: 30, lossGuardResume: 'staff' };
    expect((await put(target.roleId, admin.token, kept)).status).toBe(200);
    const refusals: Array<readonly [field: keyof CustomerGuards, bad: unknown]> = [
      ...[0, -1, 1.5, 100_000_001, '500', undefined].map((bad) => ['maxNotionalUsdt', bad] as const),
      ...[0, 126, 2.5, true, undefined].map((bad) => ['maxLeverage', bad] as const),
      ...[0, 1_001, '3', undefined].map((bad) => ['maxOpenPositions', bad] as const),
      ...[0, 100_000_001, 0.5, undefined].map((bad) => ['minFreeBalanceUsdt', bad] as const),
      ...[0, 100_000_001, 2.5, '100'].map((bad) => ['dailyLossLimitUsdt', bad] as const),
      ...[0, 100, 12.5, -5].map((bad) => ['maxDrawdownPct', bad] as const),
      ...['never', 1, null].map((bad) => ['lossGuardResume', bad] as const),
    ];
    for (const [field, bad] of refusals) {
      const body: Record<string, unknown> = { maxNotionalUsdt: 10, maxLeverage: 1, maxOpenPositions: 1, minFreeBalanceUsdt: 1, dailyLossLimitUsdt: null, maxDrawdownPct: null };
      if (bad === undefined) delete body[field];
      else body[field] = bad;
      const answer = await put(target.roleId, admin.token, body);
      expect(answer.status, `${field} ${String(bad)}`).toBe(400);
      expect(answer.body.error?.message).toBe(`body.${field}: ${customerGuardsMessages[field]}`);
    }
    expect((await put(2_000_000_000, admin.token, kept)).status).toBe(404);
    expect((await ctx.api('GET', url(2_000_000_000), { token: admin.token })).status).toBe(404);
    expect((await put(target.roleId, employee.token, NONE)).status).toBe(403);
    expect((await put(target.roleId, customer.token, NONE)).status).toBe(403);
    expect((await put(customer.roleId, customer.token, NONE)).status).toBe(403);
    expect((await ctx.api('GET', url(customer.roleId), { token: customer.token })).status).toBe(403);
    expect((await ctx.api('GET', url(target.roleId), { token: admin.token })).body.data).toEqual(kept);
  });
});
