import { AccountType } from '../contract/enums';
import { loadActivityFixture, type ActivityFixture } from './fixtures/activity';
import { loadCustomerFixture } from './fixtures/customers';
import { EMPTY_ROUTE, openBenchDatabase, staffHeaders, startBenchServer, type BenchServer } from './harness';
import { measureAndPrint, type LoadTarget } from './http-load';
import type { Benchmark } from './benchmark';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const EXECUTIONS = Number(process.env.BENCH_EXECUTIONS ?? 1_000_000);
const AUDITS = Number(process.env.BENCH_AUDITS ?? 200_000);
const EXECUTIONS_PER_ORDER = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = 50;

type FilterItem = { name: string; value: string | number };

/** The filters the orders and audit pages send: none, each alone, two together; pages 0-20. */
function filterMixes(fixture: ActivityFixture, extra: FilterItem[][] = []): FilterItem[][] {
  const symbol = (i: number): FilterItem => ({ name: 'strategy.symbol', value: fixture.symbols[i % fixture.symbols.length]! });
  return [
    [],
    [symbol(0)],
    [symbol(3)],
    [{ name: 'datetimeInserted', value: '2025-06' }],
    [symbol(1), { name: 'datetimeInserted', value: '2025-11' }],
    ...extra,
  ];
}

const pageOf = (i: number, mixes: number) => (Math.floor(i / mixes) * 7) % 21;

export function targetsOf(fixture: ActivityFixture, staff: Record<string, string>): LoadTarget[] {
  const orderMixes = filterMixes(fixture, [[{ name: 'id', value: fixture.orderIds[5]! }]]);
  const auditMixes = filterMixes(fixture, [[{ name: 'transactionId', value: fixture.orderIds[7]! }]]);
  const exitMixes = [...auditMixes, [{ name: 'exitType', value: 1 }]];
  /** Every third audit request asks for one week (the page's date pickers). */
  const auditPath = (base: string) => (i: number) => (i % 3 === 2 ? `${base}?startDate=2025-08-01&endDate=2025-08-07` : base);
  return [
    { name: 'empty', label: 'GET /bench/empty (empty Fastify route)', method: 'GET', path: EMPTY_ROUTE },
    {
      name: 'order-search', label: `POST /api/order/search (${orderMixes.length} filters x pages)`, method: 'POST', path: '/api/order/search', headers: staff,
      body: (i) => ({ filter: orderMixes[i % orderMixes.length], pageIndex: pageOf(i, orderMixes.length), pageSize: 50 }),
    },
    {
      name: 'entry-audit-search', label: `POST /api/error/search (${auditMixes.length} filters x pages x dates)`, method: 'POST', path: auditPath('/api/error/search'),
      headers: staff, body: (i) => ({ filter: auditMixes[i % auditMixes.length], pageIndex: pageOf(i, auditMixes.length), pageSize: 50 }),
    },
    {
      name: 'exit-audit-search', label: `POST /api/exit/search (${exitMixes.length} filters x pages x dates)`, method: 'POST', path: auditPath('/api/exit/search'),
      headers: staff, body: (i) => ({ filter: exitMixes[i % exitMixes.length], pageIndex: pageOf(i, exitMixes.length), pageSize: 50 }),
    },
  ];
}

async function run(): Promise<void> {
  const database = await openBenchDatabase('bench_activity');
  let server: BenchServer | undefined;
  try {
    const t0 = performance.now();
    const customers = await loadCustomerFixture(database.handle.db, { customers: CUSTOMERS, agents: 200 });
    const t1 = performance.now();
    const fixture = await loadActivityFixture(database.handle.db, {
      executionsPerOrder: EXECUTIONS_PER_ORDER, executions: EXECUTIONS, entryAudits: AUDITS / 2, exitAudits: AUDITS / 2,
    });
    console.log(
      `fixture: ${CUSTOMERS} customers in ${((t1 - t0) / 1000).toFixed(1)} s; ${fixture.orders} orders, ${fixture.executions} executions, ` +
        `${fixture.entryAudits} entry and ${fixture.exitAudits} exit audit rows in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
    );
    server = await startBenchServer(database);
    const staff = await staffHeaders(database.handle.db, AccountType.Employee, customers.countryIds[0]!);
    const targets = targetsOf(fixture, staff);
    await measureAndPrint(server.baseUrl, targets, { concurrency: CONCURRENCY, seconds: SECONDS, poolSize: database.handle.pool.options.max });
  } finally {
    await server?.app.close();
    await database.close();
  }
}

export const activitySearchBenchmark: Benchmark = {
  name: 'activity-search',
  description: 'order search and the entry and exit audit searches over 1,000,000 executions and 200,000 audit rows next to an empty route, 50 concurrent requests',
  run,
};
