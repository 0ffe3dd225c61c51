import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_LIST_DEFAULT_STATUSES, type CustomerFilter, type CustomerSort } from '../../contract/api/customer';
import { AccountStatus, AccountType, CustomerGroup, Exchange } from '../../contract/enums';
import { loadCustomerFixture, type CustomerFixture } from '../../bench/fixtures/customers';
import { accounts, customers } from '../../server/db/schema/index';
import { customerCountQuery, customerPageQuery, preparedPageStatementText, searchMatchesPageQuery, type CustomerQuery } from '../../server/modules/customers/repository';
import { countryId, createPerson, personWithToken } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

const CUSTOMERS = 100_000;
let ctx: TestContext;
let fixture: CustomerFixture;

beforeAll(async () => {
  ctx = await createTestContext();
  fixture = await loadCustomerFixture(ctx.deps.db, { customers: CUSTOMERS, agents: 200 });
}, 180_000);
afterAll(async () => ctx?.close());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

async function planOf(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<PlanNode[]> {
  const { sql: text, params } = query.toSQL();
  const result = await ctx.deps.pool.query(`explain (format json) ${text}`, params);
  const [explained] = result.rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>;
  return nodesOf(explained!.Plan);
}

/** Every subset of the optional filters, each with a value that matches a real share of the rows. */
function filterCombinations(): Array<[string, Partial<CustomerFilter>]> {
  const options: Array<[string, Partial<CustomerFilter>]> = [
    ['countryIds', { countryIds: [fixture.countryIds[0]!] }],
    ['agentIds', { agentIds: fixture.agentIds.slice(0, 2) }],
    ['groups', { groups: [CustomerGroup.Gold, CustomerGroup.Exclusive] }],
    ['datetimesInserted', { datetimesInserted: ['2025-03', '2025-04'] }],
    ['platformTypes', { platformTypes: [Exchange.Bybit] }],
  ];
  const combos: Array<[string, Partial<CustomerFilter>]> = [];
  for (let mask = 0; mask < 1 << options.length; mask++) {
    const chosen = options.filter((_, i) => mask & (1 << i));
    combos.push([chosen.map(([name]) => name).join('+') || 'none', Object.assign({}, ...chosen.map(([, f]) => f))]);
  }
  return combos;
}

const sorts: Array<CustomerSort | undefined> = [
  undefined,
  { name: 'currentWalletAmount', type: 2 },
  { name: 'account.firstName', type: 1 },
  { name: 'datetimeInserted', type: 1 },
];

describe('customer list over 100,000 customers', () => {
  it('plans every filter combination, status set and sort with indexes, never a scan of customers or accounts', async () => {
    const bad: string[] = [];
    const statusSets = [[...CUSTOMER_LIST_DEFAULT_STATUSES], [AccountStatus.Pending, AccountStatus.Rejected]];
    for (const [label, filter] of filterCombinations()) {
      for (const statuses of statusSets) {
        for (const sort of sorts) {
          const query: CustomerQuery = { filter: { ...filter, statuses }, sort, page: { pageIndex: 3, pageSize: 50 } };
          for (const [kind, nodes] of [['page', await planOf(customerPageQuery(ctx.deps.db, query))], ['count', await planOf(customerCountQuery(ctx.deps.db, query))]] as const) {
            const seq = nodes.filter((n) => n['Node Type'] === 'Seq Scan' && (n['Relation Name'] === 'customers' || n['Relation Name'] === 'accounts'));
            const indexed = nodes.some((n) => /Index/.test(n['Node Type']));
            if (seq.length || !indexed) bad.push(`${kind} ${label} statuses=${statuses} sort=${sort?.name ?? 'default'}`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it('plans every prepared page statement (its generic plan, reused for any values) with indexes, never a scan', async () => {
    const bad: string[] = [];
    const queries: CustomerQuery[] = [
      ...filterCombinations().flatMap(([, filter]) => sorts.map((sort) => ({ filter: { ...filter, statuses: [AccountStatus.Active] }, sort, page: { pageIndex: 3, pageSize: 50 } }))),
      ...sorts.map((sort) => ({ filter: { statuses: [AccountStatus.Active] }, agentId: fixture.agentIds[5]!, sort, page: { pageIndex: 0, pageSize: 50 } })),
    ];
    for (const query of queries) {
      const text = preparedPageStatementText(ctx.deps.db, query);
      const result = await ctx.deps.pool.query(`explain (generic_plan, format json) ${text}`);
      const nodes = nodesOf((result.rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan);
      const scans = nodes.filter((n) => n['Node Type'] === 'Seq Scan' && (n['Relation Name'] === 'customers' || n['Relation Name'] === 'accounts'));
      if (scans.length || !nodes.some((n) => /^customers_/.test(n['Index Name'] ?? ''))) bad.push(`${JSON.stringify(query.filter)} agent=${query.agentId ?? '-'} sort=${query.sort?.name ?? 'default'}: ${scans.map((n) => n['Node Type']).join(', ')}`);
    }
    expect(bad).toEqual([]);
  });

  it("plans an agent's own list (agentId forced) with an index", async () => {
    for (const sort of sorts) {
      const query: CustomerQuery = { filter: { statuses: [AccountStatus.Active] }, agentId: fixture.agentIds[5]!, sort, page: { pageIndex: 0, pageSize: 50 } };
      for (const nodes of [await planOf(customerPageQuery(ctx.deps.db, query)), await planOf(customerCountQuery(ctx.deps.db, query))]) {
        expect(nodes.some((n) => n['Node Type'] === 'Seq Scan' && (n['Relation Name'] === 'customers' || n['Relation Name'] === 'accounts'))).toBe(false);
        expect(nodes.some((n) => /^customers_/.test(n['Index Name'] ?? ''))).toBe(true);
      }
    }
  });

  it('counts full-name search matches with the trigram index, never reading the accounts table', async () => {
    for (const text of ['ann', 'ann tan', 'zzz']) {
      const query: CustomerQuery = { filter: {}, text, sort: { name: 'account.firstName', type: 1 }, page: { pageIndex: 0, pageSize: 50 } };
      const count = await planOf(customerCountQuery(ctx.deps.db, query));
      expect(count.some((n) => n['Relation Name'] === 'accounts'), text).toBe(false);
      expect(count.some((n) => n['Index Name'] === 'customers_live_fullname_trgm_idx'), text).toBe(true);
      const page = await planOf(customerPageQuery(ctx.deps.db, query));
      expect(page.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'accounts'), text).toBe(false);
    }
  });

  it('reads the same name-search page through the trigram index as along the sorted index, which it plans with', async () => {
    const differing: string[] = [];
    for (const text of ['ann', 'max ng', 'Kwek1', 'bob lim']) {
      for (const sort of [...sorts, { name: 'account.firstName', type: 2 } as const]) {
        for (const pageIndex of [0, 2]) {
          const query: CustomerQuery = { filter: { statuses: [AccountStatus.Active, AccountStatus.Blocked] }, text, sort, page: { pageIndex, pageSize: 20 } };
          const sorted = (await customerPageQuery(ctx.deps.db, query)).map((row) => row.id);
          const matches = (await ctx.deps.db.execute<{ id: number }>(searchMatchesPageQuery(ctx.deps.db, query))).rows.map((row) => Number(row.id));
          if (JSON.stringify(sorted) !== JSON.stringify(matches)) differing.push(`${text} ${sort?.name ?? 'default'} ${sort?.type ?? ''} page ${pageIndex}`);
          if (pageIndex === 0 && sorted.length === 0) differing.push(`${text}: no rows to compare`);
        }
      }
    }
    expect(differing).toEqual([]);
    const rare: CustomerQuery = { filter: {}, text: 'max ng', sort: { name: 'account.firstName', type: 1 }, page: { pageIndex: 0, pageSize: 50 } };
    const explained = await ctx.deps.db.execute<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(sql`explain (format json) ${searchMatchesPageQuery(ctx.deps.db, rare)}`);
    const nodes = nodesOf(explained.rows[0]!['QUERY PLAN'][0]!.Plan);
    expect(nodes.some((n) => n['Index Name'] === 'customers_live_fullname_trgm_idx')).toBe(true);
    expect(nodes.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'customers')).toBe(false);
  });

  it('answers the API with the same totals as a direct count', async () => {
    const employee = await personWithToken(ctx, AccountType.Employee);
    const result = await ctx.api('POST', '/api/customer/filter', { token: employee.token, body: { pageIndex: 10 } });
    expect(result.status).toBe(200);
    const direct = await ctx.deps.db.execute<{ n: number }>(sql`
      select count(*)::int as n from customers c join accounts a on a.id = c.account_id
      where a.deleted_at is null and a.status in (2, 3)`);
    expect(result.body.data.paging).toEqual({ totalCount: direct.rows[0]!.n, pageIndex: 10, pageSize: 50 });
    expect(direct.rows[0]!.n).toBeGreaterThan(CUSTOMERS * 0.7);
    expect(result.body.data.data).toHaveLength(50);
    const stats = await ctx.api('GET', '/api/customer/statistics', { token: employee.token });
    const byStatus = await ctx.deps.db.execute<{ status: number; n: number }>(sql`
      select a.status, count(*)::int as n from customers c join accounts a on a.id = c.account_id where a.deleted_at is null group by 1`);
    const count = (status: number) => byStatus.rows.find((r) => Number(r.status) === status)?.n ?? 0;
    expect(stats.body.data).toEqual({ pending: count(1), rejected: count(5), active: count(3), blocked: count(2) });
  });
});

describe('the copies of account status, country and liveness on customers', () => {
  it('follow every change of the account, whoever makes it', async () => {
    const agent = await createPerson(ctx, AccountType.Agent);
    const person = await createPerson(ctx, AccountType.Customer, { agentId: agent.roleId, status: AccountStatus.Pending });
    const copies = async () => {
      const [row] = await ctx.deps.db
        .select({ status: customers.accountStatus, country: customers.accountCountryId, live: customers.accountLive })
        .from(customers)
        .where(eq(customers.accountId, person.accountId));
      return row;
    };
    const sg = await countryId(ctx, 'SG');
    const jp = await countryId(ctx, 'JP');
    expect(await copies()).toEqual({ status: AccountStatus.Pending, country: sg, live: true });
    await ctx.deps.db.update(accounts).set({ status: AccountStatus.Active, countryId: jp }).where(eq(accounts.id, person.accountId));
    expect(await copies()).toEqual({ status: AccountStatus.Active, country: jp, live: true });
    await ctx.deps.db.update(customers).set({ accountStatus: AccountStatus.Rejected, accountLive: false }).where(eq(customers.accountId, person.accountId));
    expect(await copies()).toEqual({ status: AccountStatus.Active, country: jp, live: true });
    await ctx.deps.db.update(accounts).set({ deletedAt: new Date() }).where(eq(accounts.id, person.accountId));
    expect(await copies()).toEqual({ status: AccountStatus.Active, country: jp, live: false });
  });
});
