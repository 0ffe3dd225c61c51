import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, CustomerGroup, Exchange } from '../../contract/enums';
import { loginAs } from '../../tests/helpers/fixtures';
import { createTestContext, type TestContext } from '../../tests/helpers/test-app';
import { sharedSandboxControl } from '../sandbox/index';
import { DEMO_PASSWORD, demoAdmin, demoAgents } from './data';
import { demoSeededAt, markDemoSeeded } from './marker';
import { restoreSandboxAccounts } from './sandbox';
import { seedDemo } from './seed';

let ctx: TestContext;
let admin: string;

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.set(new Date('2026-06-15T08:00:00Z'));
  await seedDemo(ctx.deps, ctx.clock);
  await markDemoSeeded(ctx.deps.db, ctx.clock.now());
  admin = await loginAs(ctx, { email: demoAdmin.email, password: DEMO_PASSWORD });
}, 180_000);
afterAll(async () => ctx?.close());

describe('the demo data set', () => {
  it('is marked as seeded and leaves the clock at the seeding instant', async () => {
    expect(await demoSeededAt(ctx.deps.db)).toBe('2026-06-15T08:00:00.000Z');
    expect(ctx.clock.now().toISOString()).toBe('2026-06-15T08:00:00.000Z');
  });

  it('has an admin, two employees and five agents (one blocked) whose customer counts add up to 60', async () => {
    const staff = await ctx.api('GET', '/api/employee/all', { token: admin });
    expect(staff.body.data.paging.totalCount).toBe(3);
    const agents = await ctx.api('GET', '/api/agent/all', { token: admin });
    expect(agents.body.data.paging.totalCount).toBe(5);
    expect(agents.body.data.data.map((a: { totalCustomers: number }) => a.totalCustomers).sort((x: number, y: number) => x - y)).toEqual([6, 10, 12, 14, 18]);
    expect((await ctx.api('GET', '/api/agent/statistics', { token: admin })).body.data).toEqual({ active: 4, blocked: 1 });
    const agent = await loginAs(ctx, { email: demoAgents[0]!.email, password: DEMO_PASSWORD });
    expect((await ctx.api('GET', '/api/agent/dashboard/statistics', { token: agent })).body.data.totalCustomers).toBe(18);
  });

  it('has 60 customers in every status, group and enabled exchange, joined over many months', async () => {
    const all = await ctx.api('POST', '/api/customer/filter', {
      token: admin,
      body: { filter: { statuses: [1, 2, 3, 4, 5] }, pageIndex: 0, pageSize: 100 },
    });
    expect(all.body.data.paging.totalCount).toBe(60);
    const rows: Array<{ account: { status: number; country: { countryCode: string } }; group: number | null; platformType: number; datetimeInserted: string }> = all.body.data.data;
    expect(new Set(rows.map((r) => r.account.status))).toEqual(new Set([AccountStatus.Pending, AccountStatus.Blocked, AccountStatus.Active, AccountStatus.Rejected]));
    expect(new Set(rows.map((r) => r.group))).toEqual(new Set([...Object.values(CustomerGroup), null]));
    expect(new Set(rows.map((r) => r.platformType))).toEqual(new Set([Exchange.Bitget, Exchange.Bybit]));
    expect(new Set(rows.map((r) => r.account.country.countryCode)).size).toBe(12);
    const months = new Set(rows.map((r) => r.datetimeInserted.slice(0, 7)));
    expect(months.size).toBeGreaterThan(20);
    expect([...months].sort()[0]! >= '2024-05').toBe(true);
  });

  it('has Registration IDs in every status, expired ones dated in the past', async () => {
    expect((await ctx.api('GET', '/api/registrationid/statistics', { token: admin })).body.data).toEqual({ used: 10, pending: 15, expired: 10 });
    const expired = await ctx.api('POST', '/api/registrationid/search', { token: admin, body: { filter: [{ name: 'status', value: 3 }] } });
    expect(expired.body.data.data.every((r: { datetimeInserted: string }) => r.datetimeInserted < '2026-06-01T08:00:00.000Z')).toBe(true);
  });

  it("connects every customer to a sandbox account that can be reopened from the stored keys", async () => {
    const control = sharedSandboxControl();
    const uids = control.accounts().map((a) => a.uid);
    expect(uids.length).toBeGreaterThanOrEqual(60);
    for (const uid of uids) control.deleteAccount(uid);
    expect(await restoreSandboxAccounts(ctx.deps, () => 1_000)).toBe(60);
    expect(control.accounts().map((a) => a.uid).sort()).toEqual([...uids].sort());
  });
});
