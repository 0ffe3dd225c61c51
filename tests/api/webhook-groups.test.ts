import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, CustomerGroup } from '../../contract/enums';
import { staffActions } from '../../server/db/schema/index';
import { personWithToken } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let admin: string;
let employee: string;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = (await personWithToken(ctx, AccountType.Admin)).token;
  employee = (await personWithToken(ctx, AccountType.Employee)).token;
});
afterAll(async () => ctx?.close());

describe('Receive Webhook Once settings', () => {
  it('lists one row per group, 5 per page by default', async () => {
    const list = await ctx.api('GET', '/api/receiveonly/all?pageIndex=0&pageSize=5', { token: admin });
    expect(list.status).toBe(200);
    expect(list.body.data.paging).toEqual({ totalCount: 5, pageIndex: 0, pageSize: 5 });
    expect(list.body.data.data.map((r: { group: number; isActive: boolean }) => [r.group, r.isActive])).toEqual([
      [CustomerGroup.Gold, false],
      [CustomerGroup.Internal, false],
      [CustomerGroup.Vip, false],
      [CustomerGroup.Occasion, false],
      [CustomerGroup.Exclusive, false],
    ]);
    const row = list.body.data.data[0];
    expect(Object.keys(row).sort()).toEqual(['datetimeUpdated', 'group', 'id', 'isActive']);
    const second = await ctx.api('GET', '/api/receiveonly/all?pageIndex=1&pageSize=3', { token: admin });
    expect(second.body.data.data.map((r: { group: number }) => r.group)).toEqual([CustomerGroup.Occasion, CustomerGroup.Exclusive]);
    const defaults = await ctx.api('GET', '/api/receiveonly/all', { token: admin });
    expect(defaults.body.data.paging.pageSize).toBe(5);
  });

  it('switches a group on and off, answering isActive and the new update time, and logs it', async () => {
    const list = await ctx.api('GET', '/api/receiveonly/all', { token: admin });
    const vip = list.body.data.data.find((r: { group: number }) => r.group === CustomerGroup.Vip);
    ctx.clock.set(new Date('2025-05-01T10:00:00Z'));
    const on = await ctx.api('PATCH', `/api/receiveonly/${vip.id}`, { token: admin, body: { isActive: true } });
    expect(on.body).toEqual({ successful: true, data: { id: vip.id, isActive: true, datetimeUpdated: '2025-05-01T10:00:00.000Z' }, error: null });
    const after = await ctx.api('GET', '/api/receiveonly/all', { token: admin });
    expect(after.body.data.data.find((r: { group: number }) => r.group === CustomerGroup.Vip)).toEqual({
      id: vip.id, group: CustomerGroup.Vip, isActive: true, datetimeUpdated: '2025-05-01T10:00:00.000Z',
    });
    ctx.clock.advance(60_000);
    const off = await ctx.api('PATCH', `/api/receiveonly/${vip.id}`, { token: admin, body: { isActive: false } });
    expect(off.body.data).toEqual({ id: vip.id, isActive: false, datetimeUpdated: '2025-05-01T10:01:00.000Z' });
    const logs = await ctx.deps.db.select().from(staffActions).where(and(eq(staffActions.targetType, 'webhookGroup'), eq(staffActions.targetId, String(vip.id))));
    expect(logs.map((l) => l.action)).toEqual(['receiveOnce.on', 'receiveOnce.off']);
  });

  it('lets employees read the groups (spec 2: /activity/webhook read-only) and switch none', async () => {
    const asAdmin = await ctx.api('GET', '/api/receiveonly/all', { token: admin });
    const asEmployee = await ctx.api('GET', '/api/receiveonly/all', { token: employee });
    expect(asEmployee.status).toBe(200);
    expect(asEmployee.body).toEqual(asAdmin.body);
    const refused = await ctx.api('PATCH', `/api/receiveonly/${asEmployee.body.data.data[0].id}`, { token: employee, body: { isActive: true } });
    expect(refused.status).toBe(403);
    const after = await ctx.api('GET', '/api/receiveonly/all', { token: admin });
    expect(after.body).toEqual(asAdmin.body);
  });

  it('refuses unknown ids and a missing isActive', async () => {
    const unknown = await ctx.api('PATCH', '/api/receiveonly/999', { token: admin, body: { isActive: true } });
    expect(unknown.body).toEqual({ successful: false, data: null, error: { message: 'Webhook group not found' } });
    const missing = await ctx.api('PATCH', '/api/receiveonly/1', { token: admin, body: { isActive: 'yes' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toBe('body.isActive: isActive must be true or false');
  });
});
