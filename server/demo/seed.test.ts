import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, CustomerGroup, Exchange, ExitType, OrderEntryType, OrderStatus } from '../../contract/enums';
import { loginAs } from '../../tests/helpers/fixtures';
import { createTestContext, type TestContext } from '../../tests/helpers/test-app';
import { sharedSandboxControl } from '../sandbox/index';
import { DEMO_PASSWORD, demoAdmin, demoAgents, demoCustomers } from './data';
import { demoStrategies } from './strategies';
import { PAUSED_DEMO_STRATEGY } from './switches';
import { demoSeededAt } from './marker';
import { seedDemoOnce } from './once';
import { restoreSandboxAccounts } from './sandbox';

let ctx: TestContext;
let admin: string;

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.clock.set(new Date('2026-06-15T08:00:00Z'));
  expect(await seedDemoOnce(ctx.deps, ctx.clock, 'test')).toEqual({ seeded: true, seededAt: '2026-06-15T08:00:00.000Z' });
  admin = await loginAs(ctx, { email: demoAdmin.email, password: DEMO_PASSWORD });
}, 180_000);
afterAll(async () => ctx?.close());

/** Every page of a paged staff list. */
async function allPages<T>(url: string, body: Record<string, unknown> = {}): Promise<T[]> {
  const rows: T[] = [];
  for (let pageIndex = 0; ; pageIndex++) {
    const page = await ctx.api('POST', url, { token: admin, body: { filter: [], ...body, pageIndex, pageSize: 100 } });
    expect(page.status).toBe(200);
    rows.push(...page.body.data.data);
    if (rows.length >= page.body.data.paging.totalCount) return rows;
  }
}

describe('the demo data set', () => {
  it('shows the kill switches in use: a strategy paused by the admin, a customer paused by their drawdown guard (issue 29)', async () => {
    const strategy = await ctx.api('GET', `/api/strategy/${PAUSED_DEMO_STRATEGY}/pause`, { token: admin });
    expect(strategy.body.data).toMatchObject({ paused: true, reason: null });
    const guarded = await ctx.deps.db.execute<{ customer_id: number; pct: number }>(sql`select customer_id, max_drawdown_pct pct from customer_guards where max_drawdown_pct is not null`);
    expect(guarded.rows).toHaveLength(1);
    const customer = await ctx.api('GET', `/api/customer/${guarded.rows[0]!.customer_id}/pause`, { token: admin });
    expect(customer.body.data).toMatchObject({ paused: true, resumeAt: null });
    expect(customer.body.data.reason).toMatch(new RegExp(`^Maximum drawdown reached: equity .* USDT is [0-9.]+ % below its high of .* USDT, limit ${guarded.rows[0]!.pct} %$`));
  });

  it("shows execution quality figures: each strategy's copies with their latencies and slippage (issue 29)", async () => {
    const answer = await ctx.api('GET', `/api/strategy/${demoStrategies[0]!.id}/quality?days=365`, { token: admin });
    expect(answer.status).toBe(200);
    const quality = answer.body.data;
    expect(quality.executions).toBeGreaterThan(10);
    expect(quality.fillRate).toBeGreaterThan(0.5);
    expect(quality.p50AckMs).toBeGreaterThanOrEqual(45);
    expect(quality.p95AckMs).toBeLessThanOrEqual(650);
    expect(quality.p50FillMs).toBe(1200);
    expect(quality.meanSlippageBps).not.toBeNull();
    expect(quality.daily.length).toBeGreaterThan(1);
  });

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

  it("dates the staff and every agent over the history, each agent before their first customer: 'Since' is not the seeding day (issue 28 item 20)", async () => {
    const seedingDay = '2026-06-15';
    const staff: Array<{ account: { datetimeInserted: string } }> = (await ctx.api('GET', '/api/employee/all', { token: admin })).body.data.data;
    expect(staff.filter((person) => person.account.datetimeInserted.startsWith(seedingDay))).toEqual([]);
    expect(staff.every((person) => person.account.datetimeInserted < '2024-05-01')).toBe(true);
    const agents: Array<{ id: number; account: { datetimeInserted: string } }> = (await ctx.api('GET', '/api/agent/all', { token: admin })).body.data.data;
    expect(new Set(agents.map((agent) => agent.account.datetimeInserted.slice(0, 10))).size).toBe(agents.length);
    const customers = await ctx.api('POST', '/api/customer/filter', { token: admin, body: { filter: { statuses: [1, 2, 3, 4, 5] }, pageIndex: 0, pageSize: 100 } });
    for (const agent of agents) {
      const joined: string[] = customers.body.data.data.filter((c: { agent: { id: number } }) => c.agent.id === agent.id).map((c: { datetimeInserted: string }) => c.datetimeInserted);
      expect(agent.account.datetimeInserted < joined.sort()[0]!, `agent ${agent.id}`).toBe(true);
    }
  });

  it('keeps every wallet consistent with the history: the deposit plus the realized PnL, on the exchange and in the lists (issue 28 item 20)', async () => {
    const pnl = await ctx.deps.db.execute<{ email: string; pnl: string; wallet: string; uid: string }>(sql`
      select a.email, coalesce((select sum(e.realized_pnl) from executions e where e.customer_id = c.id), 0) pnl, c.current_wallet_amount wallet, c.exchange_account_uuid uid
      from customers c join accounts a on a.id = c.account_id where c.exchange_account_uuid is not null`);
    const deposits = new Map(demoCustomers().map((c) => [c.email, c.balance]));
    const control = sharedSandboxControl();
    expect(pnl.rows).toHaveLength(60);
    expect(pnl.rows.filter((row) => Number(row.pnl) !== 0).length).toBeGreaterThan(30);
    for (const row of pnl.rows) {
      const expected = deposits.get(row.email)! + Number(row.pnl);
      expect(Number(row.wallet), row.email).toBeCloseTo(expected, 6);
      expect(control.account(row.uid).balances.USDT, row.email).toBeCloseTo(expected, 6);
      expect(expected, row.email).toBeGreaterThan(0);
    }
  });

  it("connects every customer to a sandbox account that can be reopened from the stored keys", async () => {
    const control = sharedSandboxControl();
    const uids = control.accounts().map((a) => a.uid);
    expect(uids.length).toBeGreaterThanOrEqual(60);
    const before = new Map(control.accounts().map((a) => [a.uid, a.balances.USDT]));
    for (const uid of uids) control.deleteAccount(uid);
    const deposits = new Map(demoCustomers().map((c) => [c.email, c.balance]));
    expect(await restoreSandboxAccounts(ctx.deps, (email) => deposits.get(email)!)).toBe(60);
    expect(control.accounts().map((a) => a.uid).sort()).toEqual([...uids].sort());
    // Reopened with the deposit and the history's PnL, as seeding left them.
    for (const account of control.accounts()) expect(account.balances.USDT, account.uid).toBeCloseTo(before.get(account.uid)!, 6);
  });
});

describe('the demo trading history', () => {
  type OrderRow = { id: number; status: number; entryType: number; realizedPnl: number; datetimeInserted: string; strategy: { id: string } };
  type AuditRow = { transactionId: number | null; customer: { id: number } | null; strategy: { id: string } | null; exitType: number | null; message: string; datetimeInserted: string };

  it('has fee income in months of 2024, 2025 and 2026, and the report offers those years', async () => {
    const earningMonths = new Map<number, number>();
    for (const year of [2024, 2025, 2026]) {
      const report = await ctx.api('GET', `/api/report/income?year=${year}`, { token: admin });
      expect(report.status).toBe(200);
      expect(report.body.data.years).toEqual([2024, 2025, 2026]);
      const months: Array<{ month: number; income: number }> = report.body.data.months;
      earningMonths.set(year, months.filter((m) => m.income > 0).length);
      // Nothing after the seeding instant (June 2026).
      expect(months.filter((m) => year === 2026 && m.month > 6 && m.income !== 0)).toEqual([]);
    }
    expect(earningMonths.get(2024)).toBeGreaterThanOrEqual(5);
    expect(earningMonths.get(2025)).toBeGreaterThanOrEqual(10);
    expect(earningMonths.get(2026)).toBeGreaterThanOrEqual(4);
  });

  it('has settled orders of every strategy, both entry types, with wins and losses every year and losing months', async () => {
    const orders = await allPages<OrderRow>('/api/order/search');
    const stats = (await ctx.api('GET', '/api/order/statistics', { token: admin })).body.data;
    expect(orders.length).toBeGreaterThan(100);
    expect(stats).toEqual({ win: orders.filter((o) => o.status === OrderStatus.Win).length, loss: orders.filter((o) => o.status === OrderStatus.Loss).length, totalDeal: orders.length });
    expect(orders.filter((o) => o.status === OrderStatus.Active)).toEqual([]);
    expect(new Set(orders.map((o) => o.strategy.id))).toEqual(new Set(demoStrategies.map((s) => s.id)));
    expect(new Set(orders.map((o) => o.entryType))).toEqual(new Set([OrderEntryType.Manual, OrderEntryType.Api]));
    for (const year of ['2024', '2025', '2026']) {
      const ofYear = orders.filter((o) => o.datetimeInserted.startsWith(year));
      expect(ofYear.some((o) => o.status === OrderStatus.Win && o.realizedPnl > 0)).toBe(true);
      expect(ofYear.some((o) => o.status === OrderStatus.Loss && o.realizedPnl <= 0)).toBe(true);
    }
    const pnlByMonth = new Map<string, number>();
    for (const o of orders) pnlByMonth.set(o.datetimeInserted.slice(0, 7), (pnlByMonth.get(o.datetimeInserted.slice(0, 7)) ?? 0) + o.realizedPnl);
    expect([...pnlByMonth.values()].filter((pnl) => pnl < 0).length).toBeGreaterThanOrEqual(3);
    expect([...pnlByMonth.keys()].sort()[0]).toBe('2024-05');
  });

  it('audits refused and skipped entries with the engine\'s own sentences, and the counters agree with the rows', async () => {
    const audits = await allPages<AuditRow>('/api/error/search');
    const stats = (await ctx.api('GET', '/api/error/statistics', { token: admin })).body.data;
    expect(stats.errors).toBe(audits.length);
    expect(stats.total).toBeGreaterThan(1_000);
    expect(audits.every((a) => a.transactionId !== null && a.customer !== null && a.strategy !== null)).toBe(true);
    const kinds = new Set(audits.map((a) => a.message.replace(/ \(.*$/, '').replace(/^Order value .* for /, 'Order value below minimum for ')));
    expect(kinds).toEqual(
      new Set([
        'Bybit refused the order for insufficient balance',
        'Bitget refused the order for insufficient balance',
        'Bybit rejected the API key',
        'Bitget rejected the API key',
        "Bybit refused our server's IP address for this API key",
        "Bitget refused our server's IP address for this API key",
        'Order value below minimum for DOGEUSDT',
      ]),
    );
  });

  it('audits every exit: TP legs, stops, close signals, customers closing by hand and closes that failed', async () => {
    const audits = await allPages<AuditRow>('/api/exit/search');
    const failed = audits.filter((a) => a.message.startsWith('The position could not be closed: '));
    expect(failed.length).toBeGreaterThan(0);
    expect((await ctx.api('GET', '/api/exit/statistics', { token: admin })).body.data).toEqual({ error: failed.length });
    const byCustomer = await allPages<AuditRow>('/api/exit/search', { filter: [{ name: 'exitType', value: String(ExitType.Customer) }] });
    expect(byCustomer.length).toBeGreaterThan(0);
    expect(byCustomer.every((a) => a.message.includes('was closed on the exchange outside the platform (by the customer)'))).toBe(true);
    for (const text of [/^TP1 filled: /, /^TP2 filled: /, /^TP3 at .* realized PnL \d/, /^Stop loss at .* realized PnL -\d/, /^Position closed by a close signal at market: /, /^Bybit is busy/]) {
      expect(audits.some((a) => text.test(a.message.replace('The position could not be closed: ', ''))), String(text)).toBe(true);
    }
  });

  it('gives every active agent fee earnings that add up to the platform\'s fee income', async () => {
    let income = 0;
    for (const year of [2024, 2025, 2026]) {
      const months: Array<{ income: number }> = (await ctx.api('GET', `/api/report/income?year=${year}`, { token: admin })).body.data.months;
      income += months.reduce((sum, m) => sum + m.income, 0);
    }
    const listed = await ctx.api('GET', '/api/agent/all', { token: admin });
    expect(listed.body.data.paging.totalCount).toBe(demoAgents.length);
    const agents = (listed.body.data.data as Array<{ id: number; account: { status: number } }>).map((a) => ({ id: a.id, status: a.account.status }));
    let earned = 0;
    for (const agent of agents) {
      const dashboard = (await ctx.api('GET', `/api/agent/dashboard/statistics/${agent.id}`, { token: admin })).body.data;
      if (agent.status === AccountStatus.Active) expect(dashboard.totalAmountEarned).toBeGreaterThan(0);
      earned += dashboard.totalAmountEarned;
    }
    expect(income).toBeGreaterThan(0);
    expect(earned.toFixed(2)).toBe(income.toFixed(2));
    const own = (await ctx.api('GET', '/api/agent/dashboard/statistics', { token: await loginAs(ctx, { email: demoAgents[0]!.email, password: DEMO_PASSWORD }) })).body.data;
    expect(own.totalAmountEarned).toBeGreaterThan(0);
  });

  it('shows a customer their own trades, and counts each closed position on the customer', async () => {
    const first = demoCustomers()[0]!;
    const token = await loginAs(ctx, { email: first.email, password: DEMO_PASSWORD });
    const own = await ctx.api('POST', '/api/customer/orders/search', { token, body: { filter: [], pageIndex: 0, pageSize: 100 } });
    expect(own.status).toBe(200);
    const rows: Array<{ state: string }> = own.body.data.data;
    expect(rows.filter((r) => r.state === 'closed').length).toBeGreaterThan(5);
    const mismatched = await ctx.deps.db.execute(sql`
      select c.id from customers c
      where c.total_transactions <> (select count(*) from executions e where e.customer_id = c.id and e.state = 'closed')`);
    expect(mismatched.rows).toEqual([]);
  });

  it('replays history in one timeline: each order only reaches customers who had joined, and everything happened before seeding', async () => {
    const result = await ctx.deps.db.execute<{ early: number; live: number; latest: string; earliest: string }>(sql`
      select
        (select count(*)::int from executions e join orders o on o.id = e.order_id join customers c on c.id = e.customer_id
          where o.datetime_inserted < c.datetime_inserted) as early,
        (select count(*)::int from executions where state in ('pending', 'open') or claimed_by is not null) as live,
        (select greatest(max(o.closed_at), max(o.datetime_updated), (select max(closed_at) from executions), (select max(updated_at) from executions),
                         (select max(datetime_inserted) from entry_audits), (select max(datetime_inserted) from exit_audits), (select max(received_at) from signals))
           from orders o)::text as latest,
        (select min(datetime_inserted) from orders)::text as earliest`);
    const row = result.rows[0]!;
    expect(row.early).toBe(0);
    expect(row.live).toBe(0);
    expect(new Date(row.latest).getTime()).toBeLessThan(Date.parse('2026-06-14T08:00:00Z'));
    expect(new Date(row.earliest).getTime()).toBeGreaterThanOrEqual(Date.parse('2024-05-01T00:00:00Z'));
  });

  it('is seeded once: a second run adds nothing', async () => {
    const counts = async () =>
      (await ctx.deps.db.execute(sql`select (select count(*) from orders) o, (select count(*) from executions) e, (select count(*) from entry_audits) a, (select count(*) from accounts) p`)).rows[0];
    const before = await counts();
    expect(await seedDemoOnce(ctx.deps, ctx.clock, 'test')).toEqual({ seeded: false, seededAt: '2026-06-15T08:00:00.000Z' });
    expect(await counts()).toEqual(before);
  });
});
