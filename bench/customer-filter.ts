import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { CustomerGroup, AccountStatus, AccountType, Exchange, Gender } from '../contract/enums';
import { buildApp } from '../server/app';
import { createDeps } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { createDb } from '../server/db/client';
import { openEmbeddedPostgres } from '../server/db/embedded';
import { migrate } from '../server/db/migrate';
import { employees } from '../server/db/schema/index';
import { systemClock } from '../server/lib/clock';
import { createLogger } from '../server/logger';
import { insertAccount } from '../server/modules/accounts/repository';
import { createSession } from '../server/modules/auth/sessions';
import { loadCustomerFixture, type CustomerFixture } from './fixtures/customers';
import { printResults, runLoad, type LoadTarget } from './http-load';
import type { Benchmark } from './run';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = 50;
const SEARCH_TEXTS = ['ann', 'tan', 'bob lim', 'Kwek1', 'max ng', 'nobody'];

/** Filter bodies the staff list really sends: each filter alone, combined, every sort, pages 0-20. */
function filterBodies(fixture: CustomerFixture): unknown[] {
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
  const sorts = [undefined, { name: 'currentWalletAmount', type: 2 }, { name: 'account.firstName', type: 1 }, { name: 'datetimeInserted', type: 1 }];
  return filters.flatMap((filter, f) => sorts.map((sort, s) => ({ filter, ...(sort ? { sort } : {}), pageIndex: (f * 7 + s * 3) % 21, pageSize: 50 })));
}

async function staffToken(deps: ReturnType<typeof createDeps>, countryId: number): Promise<string> {
  const accountId = await deps.db.transaction(async (tx) => {
    const id = await insertAccount(tx, {
      firstName: 'Bench', lastName: 'Employee', email: 'bench.employee@load.example.com', age: 30, phone: '+6590000000',
      countryId, gender: Gender.Male, password: randomBytes(12).toString('hex'), accountType: AccountType.Employee, status: AccountStatus.Active,
    });
    await tx.insert(employees).values({ accountId: id });
    return id;
  });
  return (await createSession(deps.db, systemClock, accountId)).token;
}

async function run(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'copytrade-bench-'));
  const embedded = await openEmbeddedPostgres(dataDir);
  let app: FastifyInstance | undefined;
  const admin = new pg.Client({ connectionString: embedded.adminUrl });
  await admin.connect();
  await admin.query('create database bench');
  await admin.end();
  const handle = createDb(embedded.urlFor('bench'));
  try {
    await migrate(handle.pool);
    const t0 = performance.now();
    const fixture = await loadCustomerFixture(handle.db, { customers: CUSTOMERS, agents: 200 });
    console.log(`fixture: ${CUSTOMERS} customers, 200 agents in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const config = { ...loadConfig({}), dataDir, databaseUrl: handle.url, masterKey: randomBytes(32).toString('base64'), logLevel: 'silent', runDispatcher: false };
    const deps = createDeps(config, handle, createLogger('silent'));
    app = await buildApp(deps, {
      extraPlugins: [(instance) => void instance.get('/bench/empty', async () => ({ successful: true, data: null, error: null }))],
    });
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    const headers = { authorization: `Bearer ${await staffToken(deps, fixture.countryIds[0]!)}` };
    const bodies = filterBodies(fixture);
    const targets: LoadTarget[] = [
      { label: 'GET /bench/empty (empty Fastify route)', method: 'GET', path: '/bench/empty' },
      { label: 'POST /api/customer/filter (default list)', method: 'POST', path: '/api/customer/filter', headers, body: () => ({}) },
      { label: `POST /api/customer/filter (${bodies.length} filter/sort/page mixes)`, method: 'POST', path: '/api/customer/filter', headers, body: (i) => bodies[i % bodies.length] },
      { label: 'POST /api/customer/search/fullname (6 texts)', method: 'POST', path: '/api/customer/search/fullname', headers, body: (i) => ({ text: SEARCH_TEXTS[i % SEARCH_TEXTS.length] }) },
    ];
    for (const target of targets) await runLoad(baseUrl, target, { concurrency: CONCURRENCY, seconds: 1 });
    const results = [];
    for (const target of targets) results.push(await runLoad(baseUrl, target, { concurrency: CONCURRENCY, seconds: SECONDS }));
    console.log(`${CONCURRENCY} concurrent requests, ${SECONDS} s per target, database pool of ${handle.pool.options.max ?? 10}`);
    printResults(results, CONCURRENCY);
  } finally {
    await app?.close();
    await handle.close();
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const customerFilterBenchmark: Benchmark = {
  name: 'customer-filter',
  description: 'POST /api/customer/filter over 100,000 customers next to an empty route, 50 concurrent requests',
  run,
};
