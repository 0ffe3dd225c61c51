import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccountType, CustomerGroup } from '../contract/enums';
import { openEmbeddedPostgres } from '../server/db/embedded';
import type { AccountState } from '../server/sandbox/control';
import { EXCHANGE_CEILINGS } from '../server/trading/exchanges/rate-limiter';
import { stopsCover } from '../tests/chaos/invariants';
import type { Benchmark } from './benchmark';
import { benchFigures } from './figures';
import { insertCustomers, insertStrategy, openEnvironment, type BenchCustomer, type BenchEnvironment } from './fanout-setup';
import { staffHeaders } from './harness';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';

/** One-way latency the sandbox adds to every request, as in the fan-out benchmark. */
const LATENCY_MS = 2;
const BYBIT_N = Number(process.env.BENCH_CLOSE_ALL_BYBIT ?? 1000);
const BITGET_N = Number(process.env.BENCH_CLOSE_ALL_BITGET ?? 1000);
/** Bounds of the two waits: every position open and protected, then every position flat. */
const OPEN_WAIT_MS = 300_000;
const CLOSE_WAIT_MS = 600_000;
const EXCHANGES = ['bybit', 'bitget'] as const;
type ExchangeName = (typeof EXCHANGES)[number];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const perSecond = (exchange: ExchangeName) => (EXCHANGE_CEILINGS[exchange].perIp.limit * 1000) / EXCHANGE_CEILINGS[exchange].perIp.windowMs;

const { record, print: printFigures } = benchFigures('close-all', 2);

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > timeoutMs) throw new Error(`close-all benchmark: ${what} not reached within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

const openPositionsOf = (accounts: AccountState[]) => accounts.flatMap((account) => account.positions.filter((p) => p.size > 0).map((position) => ({ account, position })));

/** What one look at every account of the exchange shows: positions still open, and those of them without a stop covering them. */
interface Sample {
  open: number;
  naked: number;
}

function sampleOf(accounts: AccountState[]): Sample {
  const open = openPositionsOf(accounts);
  return { open: open.length, naked: open.filter(({ account, position }) => !stopsCover(account, position)).length };
}

/** When each exchange's last close filled (its own clock), from the reduce-only orders that filled. */
function lastCloseFill(accounts: AccountState[], uids: ReadonlySet<string>): number {
  let last = 0;
  for (const account of accounts) {
    if (!uids.has(account.uid)) continue;
    for (const order of account.orders) if (order.reduceOnly && order.filledQty > 0) last = Math.max(last, order.createdAt);
  }
  return last;
}

async function openEverything(env: BenchEnvironment, token: string): Promise<number> {
  const answer = await fetch(`${env.baseUrl}/api/webhook/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"action":"open"}' });
  const orderId = ((await answer.json()) as { data: { orderId: number } }).data.orderId;
  await until(
    'every position open and protected',
    async () => {
      const r = await env.handle.pool.query<{ n: number }>(`select count(*)::int as n from executions where order_id = $1 and (state = 'pending' or (state = 'open' and protected_at is null))`, [orderId]);
      return r.rows[0]!.n === 0;
    },
    OPEN_WAIT_MS,
  );
  return orderId;
}

/**
 * Close all of the strategy (every position of the run) through its route, then reads every account of the sandbox as fast as it
 * answers until every position is flat: the most positions seen open without a stop at once, and when
 * each exchange's last position closed.
 */
async function closeAllAndWatch(env: BenchEnvironment, sandbox: SandboxProcess, customers: Record<ExchangeName, BenchCustomer[]>, strategyId: string): Promise<void> {
  const country = await env.handle.pool.query<{ id: number }>('select id from countries order by id limit 1');
  const admin = await staffHeaders(env.deps.db, AccountType.Admin, country.rows[0]!.id);
  const before = sampleOf(await sandbox.control.accounts());
  const started = Date.now();
  const answer = await fetch(`${env.baseUrl}/api/strategy/${strategyId}/close-all`, { method: 'POST', headers: admin });
  const asked = ((await answer.json()) as { data: { positions: number } }).data.positions;
  let samples = 0;
  let mostNaked = 0;
  let nakedSamples = 0;
  let accounts: AccountState[] = [];
  for (;;) {
    accounts = await sandbox.control.accounts();
    const sample = sampleOf(accounts);
    samples += 1;
    mostNaked = Math.max(mostNaked, sample.naked);
    if (sample.naked > 0) nakedSamples += 1;
    if (sample.open === 0) break;
    if (Date.now() - started > CLOSE_WAIT_MS) break;
  }
  const left = sampleOf(accounts).open;
  console.log(`  close all of the strategy asked for ${asked} positions (${before.open} open on the exchange, ${before.naked} without a stop before it); ${samples} looks at every account while they closed`);
  console.log(`  positions seen open without a stop at once: at most ${mostNaked} (in ${nakedSamples} of ${samples} looks); still open at the end: ${left}`);
  record('positions_asked', asked, 'count', 'positions the close-all asked to close');
  record('most_naked_at_once', mostNaked, 'count', 'positions open without a stop at any look (0 = every one protected until flat)');
  record('still_open', left, 'count', `positions still open ${CLOSE_WAIT_MS / 1000} s after the close-all`);
  for (const exchange of EXCHANGES) {
    const n = customers[exchange].length;
    if (n === 0) continue;
    const lastFlat = (lastCloseFill(accounts, new Set(customers[exchange].map((c) => c.uid))) - started) / 1000;
    const ceiling = n / perSecond(exchange);
    const limit = EXCHANGE_CEILINGS[exchange].perIp;
    console.log(`  ${n} ${exchange} positions: last flat ${lastFlat.toFixed(1)} s after the close-all; ceiling ${ceiling.toFixed(1)} s (one close order each at ${limit.limit} requests / ${limit.windowMs / 1000} s per address)`);
    record(`${exchange}_${n}_last_flat_s`, lastFlat, 's', `${n} ${exchange} positions: close-all -> last position flat`);
    record(`${exchange}_${n}_ceiling_s`, ceiling, 's', `${n} ${exchange} positions: the address ceiling's least time (one close order each)`);
    record(`${exchange}_${n}_vs_ceiling`, lastFlat / ceiling, 'ratio', `${n} ${exchange} positions: last flat over the ceiling's time`);
  }
}

async function run(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'copytrade-bench-close-all-'));
  const embedded = await openEmbeddedPostgres(dataDir);
  const sandbox = await startSandboxProcess({ randomWalk: false });
  let env: BenchEnvironment | undefined;
  try {
    await sandbox.control.setPrice('BTCUSDT', 60000);
    await sandbox.control.setFaults([{ latencyMs: LATENCY_MS }]);
    console.log(`sandbox one-way latency ${LATENCY_MS} ms; per-address ceilings Bybit 600 / 5 s, Bitget 6,000 / min; one process (API and engine, REST), one address`);
    env = await openEnvironment(embedded.adminUrl, (db) => embedded.urlFor(db), 'bench_close_all', sandbox, { withDispatcher: true, bybitOrderEntry: 'rest' });
    const customers = {
      bybit: await insertCustomers(env.deps, sandbox, { count: BYBIT_N, exchange: 'bybit', group: CustomerGroup.Gold }),
      bitget: await insertCustomers(env.deps, sandbox, { count: BITGET_N, exchange: 'bitget', group: CustomerGroup.Gold }),
    };
    const strategy = await insertStrategy(env.deps, { groups: [CustomerGroup.Gold] });
    const opening = Date.now();
    await openEverything(env, strategy.token);
    console.log(`  ${BYBIT_N} Bybit and ${BITGET_N} Bitget positions open and protected after ${((Date.now() - opening) / 1000).toFixed(1)} s`);
    await sleep(5_500); // the per-address windows drain before the close-all
    await closeAllAndWatch(env, sandbox, customers, strategy.id);
    printFigures();
  } finally {
    await env?.close();
    await sandbox.close();
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const closeAllBenchmark: Benchmark = {
  name: 'close-all',
  description: `issue 29: close all of ${BYBIT_N} Bybit and ${BITGET_N} Bitget positions on the sandbox (${LATENCY_MS} ms latency, real per-address ceilings): last position flat per exchange beside its ceiling, positions ever seen without a stop`,
  run,
};
