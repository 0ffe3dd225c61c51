import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType } from '../../contract/enums';
import { goldStrategy } from '../engine/fixtures';
import { personWithToken, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

/**
 * Close all (issue 29) through the API: who may read and ask for it, what a bad request gets, and what a
 * close-all with nothing to close records. The closes themselves, on the exchange: tests/engine/close-all.test.ts.
 */
describe('close all: access, validation and records', () => {
  let ctx: TestContext;
  let admin: Person & { token: string };
  let employee: Person & { token: string };
  let agent: Person & { token: string };
  let customer: Person & { token: string };

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await personWithToken(ctx, AccountType.Admin);
    employee = await personWithToken(ctx, AccountType.Employee);
    agent = await personWithToken(ctx, AccountType.Agent);
    customer = await personWithToken(ctx, AccountType.Customer);
  });
  afterAll(() => ctx?.close());

  const runs = async () => (await ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from close_all_runs`)).rows[0]!.n;

  it('staff read the latest close-all (none at first); an admin asks for one with nothing to close: recorded, in the staff log, read back', async () => {
    const strategy = await goldStrategy(ctx);
    const url = `/api/strategy/${strategy.id}/close-all`;
    expect((await ctx.api('GET', url, { token: employee.token })).body).toMatchObject({ successful: true, data: { last: null } });

    const asked = await ctx.api('POST', url, { token: admin.token });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toEqual({ id: expect.any(Number), scope: 'strategy', requestedAt: ctx.clock.now().toISOString(), positions: 0, closed: 0, protected: 0 });
    expect((await ctx.api('GET', url, { token: employee.token })).body.data).toEqual({ last: asked.body.data });
    const logged = await ctx.deps.db.execute<{ action: string; target_id: string; details: unknown }>(
      sql`select action, target_id, details from staff_actions where action = 'strategy.closeAll'`,
    );
    expect(logged.rows).toEqual([{ action: 'strategy.closeAll', target_id: strategy.id, details: { positions: 0 } }]);

    const forCustomer = await ctx.api('POST', `/api/customer/${customer.roleId}/close-all`, { token: admin.token });
    expect([forCustomer.status, forCustomer.body.data.scope]).toEqual([200, 'customer']);
    expect((await ctx.api('GET', `/api/customer/${customer.roleId}/close-all`, { token: admin.token })).body.data.last.id).toBe(forCustomer.body.data.id);
  });

  it('employees read and cannot ask (403); agents and customers cannot read (403); nothing is recorded', async () => {
    const strategy = await goldStrategy(ctx);
    const before = await runs();
    for (const path of [`/api/strategy/${strategy.id}/close-all`, `/api/customer/${customer.roleId}/close-all`, '/api/platform/close-all']) {
      expect((await ctx.api('GET', path, { token: employee.token })).status, path).toBe(200);
      const body = path.startsWith('/api/platform') ? { code: '123456' } : undefined;
      expect((await ctx.api('POST', path, { token: employee.token, body })).status, path).toBe(403);
      for (const other of [agent, customer]) expect((await ctx.api('GET', path, { token: other.token })).status, path).toBe(403);
    }
    expect((await ctx.api('POST', `/api/strategy/${strategy.id}/close-all`)).status).toBe(401);
    expect(await runs()).toBe(before);
  });

  it('unknown records are 404, a bad id or a missing code 400, in the envelope; nothing is recorded', async () => {
    const before = await runs();
    const unknownStrategy = await ctx.api('POST', '/api/strategy/NOPE404/close-all', { token: admin.token });
    expect([unknownStrategy.status, unknownStrategy.body.successful, unknownStrategy.body.error?.message]).toEqual([404, false, 'Strategy NOPE404 does not exist.']);
    expect((await ctx.api('POST', '/api/customer/999999/close-all', { token: admin.token })).status).toBe(404);
    expect((await ctx.api('GET', '/api/customer/999999/close-all', { token: admin.token })).status).toBe(404);
    const badId = await ctx.api('POST', '/api/customer/abc/close-all', { token: admin.token });
    expect([badId.status, badId.body.successful]).toEqual([400, false]);
    const noCode = await ctx.api('POST', '/api/platform/close-all', { token: admin.token, body: {} });
    expect([noCode.status, noCode.body.successful]).toEqual([400, false]);
    const wrongCode = await ctx.api('POST', '/api/platform/close-all', { token: admin.token, body: { code: '000000' } });
    expect([wrongCode.status, wrongCode.body.successful]).toEqual([400, false]);
    expect(await runs()).toBe(before);
  });
});
