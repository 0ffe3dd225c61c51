import { AccountStatus, AccountType, CustomerGroup, Exchange, SortType } from '../contract/enums';
import { loadCustomerFixture, type CustomerFixture } from './fixtures/customers';
import { bearerHeaders, EMPTY_ROUTE, openBenchDatabase, staffHeaders, startBenchServer, type BenchServer } from './harness';
import { measureAndPrint, type LoadTarget } from './http-load';
import type { Benchmark } from './benchmark';
import { sql } from 'drizzle-orm';
import type { DbHandle } from '../server/db/client';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const BOOK_AGENT_CUSTOMERS = 5_000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = 50;
const SEARCH_TEXTS = ['ann', 'tan', 'bob lim', 'Kwek1', 'max ng', 'nobody'];
const sorts = [undefined, { name: 'currentWalletAmount', type: SortType.Descending }, { name: 'account.firstName', type: SortType.Ascending }, { name: 'datetimeInserted', type: SortType.Ascending }];

/** Filter bodies the staff list really sends: each filter alone, combined, every sort, pages 0-20. */
export function filterBodies(fixture: CustomerFixture): unknown[] {
  const filters = [
    {},
    { statuses: [AccountStatus.Pending, AccountStatus.Rejected] },
    { countryIds: [fixture.countryIds[0]] },
    { agentIds: [fixture.agentIds[3]] },
    { groups: [CustomerGroup.Vip] },
    { datetimesInserted: ['2025-03'] },
    { platformTypes: [Exchange.Bitget] },
    { statuses: [AccountStatus.Active], countryIds: fixture.countryIds.slice(0, 3), groups: [CustomerGroup.Gold, CustomerGroup.Internal], platformTypes: [Exchange.Bybit] },
    { agentIds: fixture.agentIds.slice(0, 5), datetimesInserted: ['2024-09', '2024-10', '2024-11'] },
  ];
  return filters.flatMap((filter, f) => sorts.map((sort, s) => ({ filter, ...(sort ? { sort } : {}), pageIndex: (f * 7 + s * 3) % 21, pageSize: 50 })));
}

/** What an agent with a book of 5,000 customers sends: every status, filters of their own list, every sort, pages 0-9. */
function ownListBodies(fixture: CustomerFixture): unknown[] {
  const filters = [
    {},
    { statuses: [AccountStatus.Active] },
    { groups: [CustomerGroup.Gold, CustomerGroup.Vip] },
    { platformTypes: [Exchange.Bybit] },
    { countryIds: fixture.countryIds.slice(0, 2), datetimesInserted: ['2025-01', '2025-02', '2025-03'] },
  ];
  return filters.flatMap((filter, f) => sorts.map((sort, s) => ({ filter, ...(sort ? { sort } : {}), pageIndex: (f * 3 + s) % 10, pageSize: 50 })));
}

/** Wallet changes per second in the "changing" target: each one makes every kept answer stale. */
const CHANGES_PER_SECOND = 20;

/**
 * Customers' wallets changing beside the load (one customer at a time, as the wallet sync writes
 * them), so the lists are read again after every change instead of served from kept answers.
 */
function walletsChanging(db: DbHandle['db'], customers: number): () => () => Promise<void> {
  return () => {
    let running = true;
    let n = 0;
    const writes = (async () => {
      while (running) {
        n += 1;
        await db.execute(sql`update customers set current_wallet_amount = current_wallet_amount + 1 where id = ${1 + ((n * 7919) % customers)}`);
        await new Promise((resolve) => setTimeout(resolve, 1000 / CHANGES_PER_SECOND));
      }
    })();
    return async () => {
      running = false;
      await writes;
    };
  };
}

export function targetsOf(fixture: CustomerFixture, staff: Record<string, string>, agent: Record<string, string>, db?: DbHandle['db']): LoadTarget[] {
  const bodies = filterBodies(fixture);
  const ownBodies = ownListBodies(fixture);
  return [
    { name: 'empty', label: 'GET /bench/empty (empty Fastify route)', method: 'GET', path: EMPTY_ROUTE },
    { name: 'customer-filter-default', label: 'POST /api/customer/filter (default list)', method: 'POST', path: '/api/customer/filter', headers: staff, body: () => ({}) },
    {
      name: 'customer-filter-mixes', label: `POST /api/customer/filter (${bodies.length} filter/sort/page mixes)`, method: 'POST', path: '/api/customer/filter',
      headers: staff, body: (i) => bodies[i % bodies.length],
    },
    ...(db
      ? [{
          name: 'customer-filter-mixes-changing', label: `POST /api/customer/filter (${bodies.length} mixes, a wallet changing ${CHANGES_PER_SECOND} times a second)`, method: 'POST' as const,
          path: '/api/customer/filter', headers: staff, body: (i: number) => bodies[i % bodies.length], during: walletsChanging(db, fixture.customers),
        }]
      : []),
    {
      name: 'customer-search-fullname', label: `POST /api/customer/search/fullname (${SEARCH_TEXTS.length} texts)`, method: 'POST', path: '/api/customer/search/fullname',
      headers: staff, body: (i) => ({ text: SEARCH_TEXTS[i % SEARCH_TEXTS.length] }),
    },
    {
      name: 'agent-own-customers', label: `POST /api/agent/customers/own/filter (${BOOK_AGENT_CUSTOMERS} customers, ${ownBodies.length} mixes)`, method: 'POST',
      path: '/api/agent/customers/own/filter', headers: agent, body: (i) => ownBodies[i % ownBodies.length],
    },
  ];
}

async function run(): Promise<void> {
  const database = await openBenchDatabase('bench');
  let server: BenchServer | undefined;
  try {
    const t0 = performance.now();
    const fixture = await loadCustomerFixture(database.handle.db, { customers: CUSTOMERS, agents: 200, bookAgentCustomers: BOOK_AGENT_CUSTOMERS });
    console.log(`fixture: ${CUSTOMERS} customers, 201 agents (one with ${BOOK_AGENT_CUSTOMERS} customers) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    server = await startBenchServer(database);
    const staff = await staffHeaders(database.handle.db, AccountType.Employee, fixture.countryIds[0]!);
    const agent = await bearerHeaders(database.handle.db, fixture.bookAgent!.accountId);
    const targets = targetsOf(fixture, staff, agent, database.handle.db);
    await measureAndPrint(server.baseUrl, targets, { concurrency: CONCURRENCY, seconds: SECONDS, poolSize: database.handle.pool.options.max });
  } finally {
    await server?.app.close();
    await database.close();
  }
}

export const customerFilterBenchmark: Benchmark = {
  name: 'customer-filter',
  description: "the customer list, full-name search and an agent's own list over 100,000 customers next to an empty route, 50 concurrent requests",
  run,
};
