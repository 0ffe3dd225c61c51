import { sql, type Placeholder } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType } from '../../contract/enums';
import { loadActivityFixture, type ActivityFixture } from '../../bench/fixtures/activity';
import { loadCustomerFixture } from '../../bench/fixtures/customers';
import type { CountAtSnapshot } from '../../server/db/insert-only-count';
import { auditPageQuery, auditRowsQuery, countAudits, type AuditFilter, type AuditKind } from '../../server/modules/audits/query';
import { orderConditions, orderCountQuery, orderPageQuery, orderRowsQuery } from '../../server/modules/orders/repository';
import { personWithToken } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

/** The fixture of `npm run bench -- activity-search`: 1,000,000 executions of 20,000 orders, 100,000 rows in each audit. */
const EXECUTIONS = 1_000_000;
const AUDITS = 100_000;
let ctx: TestContext;
let fixture: ActivityFixture;
let snapshot: CountAtSnapshot;

beforeAll(async () => {
  ctx = await createTestContext();
  await loadCustomerFixture(ctx.deps.db, { customers: 20_000, agents: 50 });
  fixture = await loadActivityFixture(ctx.deps.db, { executionsPerOrder: 50, executions: EXECUTIONS, entryAudits: AUDITS, exitAudits: AUDITS });
  // The snapshot as of now with no other transaction running. pg_current_snapshot()'s xmin is the oldest
  // transaction running anywhere on the server: another file's, in a full run, which puts every fixture row
  // in the "added since" range and makes the planner's choice depend on what else runs at that moment.
  const [row] = (await ctx.deps.db.execute<{ xmax: string }>(sql`select pg_snapshot_xmax(pg_current_snapshot())::text as xmax`)).rows;
  snapshot = { n: 0, snapshot: `${row!.xmax}:${row!.xmax}:` };
}, 300_000);
afterAll(async () => ctx?.close());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];

/** The plan of a query; a placeholder (the ids of a page) is given `ids`. */
async function planOf(query: { toSQL(): { sql: string; params: unknown[] } }, ids: number[] = []): Promise<PlanNode[]> {
  const { sql: text, params } = query.toSQL();
  const values = params.map((param) => (typeof param === 'object' && param !== null && 'name' in (param as Placeholder) ? ids : param));
  const result = await ctx.deps.pool.query(`explain (format json) ${text}`, values);
  const [explained] = result.rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>;
  return nodesOf(explained!.Plan);
}

const BIG_TABLES = ['orders', 'executions', 'entry_audits', 'exit_audits', 'customers', 'accounts'];
const scansOfBigTables = (nodes: PlanNode[]) => nodes.filter((n) => n['Node Type'] === 'Seq Scan' && BIG_TABLES.includes(n['Relation Name'] ?? '')).map((n) => n['Relation Name']);
const indexesOf = (nodes: PlanNode[]) => nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : []));

type Filter = AuditFilter['filter'];

function filterMixes(extra: Filter[]): Filter[] {
  return [
    [],
    [{ name: 'strategy.symbol', value: fixture.symbols[2]! }],
    [{ name: 'datetimeInserted', value: '2025-06' }],
    [{ name: 'strategy.symbol', value: fixture.symbols[1]! }, { name: 'datetimeInserted', value: '2025-11' }],
    ...extra,
  ];
}

describe('order search over 1,000,000 executions', () => {
  it('plans every filter, page and count with indexes, never a scan of orders or executions', async () => {
    const bad: string[] = [];
    for (const filter of filterMixes([[{ name: 'id', value: fixture.orderIds[3]! }]])) {
      for (const pageIndex of [0, 20]) {
        const page = { pageIndex, pageSize: 50 };
        const plans = {
          page: await planOf(orderPageQuery(ctx.deps.db, filter, page)),
          'page+added': await planOf(orderPageQuery(ctx.deps.db, filter, page, snapshot)),
          count: await planOf(orderCountQuery(ctx.deps.db, filter, orderConditions(filter))),
        };
        for (const [kind, nodes] of Object.entries(plans)) {
          const indexed = indexesOf(nodes).some((name) => name.startsWith('orders_'));
          if (scansOfBigTables(nodes).length || !indexed) bad.push(`${kind} ${JSON.stringify(filter)} page ${pageIndex}: ${scansOfBigTables(nodes)} ${indexesOf(nodes)}`);
        }
        const added = plans['page+added'];
        if (!indexesOf(added).includes('orders_inserted_by_idx')) bad.push(`added ${JSON.stringify(filter)}: ${indexesOf(added)}`);
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it("reads a page's rows by primary key and whether each is closing from the closing index", async () => {
    const nodes = await planOf(orderRowsQuery(ctx.deps.db), fixture.orderIds.slice(0, 50));
    expect(scansOfBigTables(nodes)).toEqual([]);
    expect(indexesOf(nodes)).toEqual(expect.arrayContaining(['orders_pkey', 'executions_closing_idx']));
  });

  it('answers the API with the same total as a direct count', async () => {
    const employee = await personWithToken(ctx, AccountType.Employee);
    const body = { filter: [{ name: 'strategy.symbol', value: fixture.symbols[0] }], pageIndex: 3 };
    const answer = await ctx.api('POST', '/api/order/search', { token: employee.token, body });
    const direct = await ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from orders o join strategies s on s.id = o.strategy_id where s.symbol = ${fixture.symbols[0]}`);
    expect(answer.body.data.paging).toEqual({ totalCount: direct.rows[0]!.n, pageIndex: 3, pageSize: 50 });
    expect(direct.rows[0]!.n).toBeGreaterThan(fixture.orders / 20);
    expect(answer.body.data.data).toHaveLength(50);
  });
});

describe.each<AuditKind>(['entry', 'exit'])('%s audit search over 100,000 rows', (kind) => {
  const dates = [{}, { startDate: '2025-08-01', endDate: '2025-08-07' }];

  it('plans every filter, date range, page and count with indexes, never a scan of the audit', async () => {
    const extra: Filter[] = [[{ name: 'transactionId', value: fixture.orderIds[5]! }], ...(kind === 'exit' ? [[{ name: 'exitType', value: 1 }]] : [])];
    const bad: string[] = [];
    for (const filter of filterMixes(extra)) {
      for (const range of dates) {
        const input = { filter, ...range };
        for (const pageIndex of [0, 20]) {
          const page = { pageIndex, pageSize: 50 };
          const plans = {
            page: await planOf(auditPageQuery(ctx.deps.db, kind, input, page)),
            'page+added': await planOf(auditPageQuery(ctx.deps.db, kind, input, page, snapshot)),
            count: await planOf(countAudits(ctx.deps.db, kind, input)),
          };
          for (const [label, nodes] of Object.entries(plans)) {
            const indexed = indexesOf(nodes).some((name) => name.startsWith(`${kind}_audits_`));
            if (scansOfBigTables(nodes).length || !indexed) bad.push(`${label} ${JSON.stringify(input)} page ${pageIndex}: ${scansOfBigTables(nodes)} ${indexesOf(nodes)}`);
          }
          if (!indexesOf(plans['page+added']).includes(`${kind}_audits_inserted_by_idx`)) bad.push(`added ${JSON.stringify(input)}: ${indexesOf(plans['page+added'])}`);
        }
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it("reads a page's rows by primary key", async () => {
    const [ids] = (await ctx.deps.db.execute<{ ids: number[] }>(sql.raw(`select array_agg(id) as ids from (select id from ${kind}_audits order by id desc limit 50) a`))).rows;
    const nodes = await planOf(auditRowsQuery(ctx.deps.db, kind), ids!.ids.map(Number));
    expect(scansOfBigTables(nodes)).toEqual([]);
    expect(indexesOf(nodes)).toContain(`${kind}_audits_pkey`);
  });
});
