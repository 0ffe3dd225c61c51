import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { AccountStatus, AccountType, AmountType, CustomerGroup, Exchange, TakeProfitMode } from '../contract/enums';
import { buildApp } from '../server/app';
import { createDeps } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { createDb, type DbHandle } from '../server/db/client';
import { openEmbeddedPostgres } from '../server/db/embedded';
import { migrate } from '../server/db/migrate';
import { strategies, strategyGroups } from '../server/db/schema/index';
import { createLogger } from '../server/logger';
import { encryptCredentials } from '../server/lib/credentials';
import { webhookTokenColumns } from '../server/modules/strategies/webhook-token';
import { startSandbox, type RunningSandbox } from '../server/sandbox/index';
import { createDispatcher } from '../server/trading/dispatcher';
import { prepareStrategyAccounts } from '../server/trading/prepare';
import { createTradingRuntime } from '../server/trading/start';
import { useExchangeAccess } from '../server/trading/exchanges/for-deps';
import type { Deps } from '../server/deps';
import { protectionTimes, spreadText, type ProtectionTimes } from './fanout-protection';
import type { Benchmark } from './run';

const SIZES = (process.env.BENCH_FANOUT_SIZES ?? '100,1000,5000').split(',').filter(Boolean).map(Number);
const LATENCY_MS = 50;
/** Per-IP ceilings the sandbox enforces (EXCHANGES 2.6, 3.6): Bybit 600 / 5 s, Bitget 6000 / min. */
const RATE = { bybit: 600 / 5, bitget: 6000 / 60 };

let strategyCount = 0;

async function insertStrategy(deps: Deps, group: number): Promise<{ id: string; token: string }> {
  strategyCount += 1;
  const id = `BENCH${strategyCount}`;
  const token = randomBytes(24).toString('base64url');
  // A take-profit ladder (TP1 50%, TP2 30%, TP3 20%) and a 2% stop: every position needs four protective orders.
  await deps.db.insert(strategies).values({
    id, symbol: 'BTCUSDT', entryDirection: 1, leverage: 10, positionMode: 1, takeProfitType: AmountType.Percent, takeProfitMode: TakeProfitMode.Partial,
    tp1TargetLevel: '1', tp1CloseVolume: '50', tp2TargetLevel: '2', tp2CloseVolume: '30', tp3TargetLevel: '3', tp3CloseVolume: '20',
    stopLossType: AmountType.Percent, stopLossAmount: '2', ...webhookTokenColumns(deps.secrets, id, token),
  });
  await deps.db.insert(strategyGroups).values({ strategyId: id, group, investType: AmountType.Quantity, investAmount: '0.01' });
  return { id, token };
}

/** N active customers in Gold, half on each sandbox exchange, keys encrypted like production. */
async function insertCustomers(deps: Deps, sandbox: RunningSandbox, n: number): Promise<Record<'bybit' | 'bitget', string[]>> {
  await deps.db.execute(sql`update customers set "group" = ${CustomerGroup.Occasion} where "group" = ${CustomerGroup.Gold}`);
  const uids: Record<'bybit' | 'bitget', string[]> = { bybit: [], bitget: [] };
  const batch = 500;
  for (let start = 0; start < n; start += batch) {
    const size = Math.min(batch, n - start);
    const accounts = await deps.db.execute<{ id: number }>(sql`
      insert into accounts (first_name, last_name, email, status, account_type, password_hash)
      select 'Bench', 'Customer' || g, 'bench.' || g || '.' || ${randomBytes(4).toString('hex')} || '@load.example.com', ${AccountStatus.Active}, ${AccountType.Customer}, 'x'
      from generate_series(1, ${size}) g returning id`);
    for (const [i, row] of accounts.rows.entries()) {
      const exchange = (start + i) % 2 === 0 ? 'bybit' : 'bitget';
      const creds = sandbox.control.createAccount({ exchange, balance: 100_000 });
      uids[exchange].push(creds.uid);
      const enc = encryptCredentials(deps.secrets, Number(row.id), { apiKey: creds.apiKey, apiSecret: creds.secret, passphrase: creds.passphrase || null });
      await deps.db.execute(sql`
        insert into customers (account_id, "group", application_source, platform_type, api_key_enc, api_key_last4, api_secret_enc, passphrase_enc)
        values (${row.id}, ${CustomerGroup.Gold}, 1, ${exchange === 'bybit' ? Exchange.Bybit : Exchange.Bitget}, ${enc.apiKeyEnc}, ${enc.apiKeyLast4}, ${enc.apiSecretEnc}, ${enc.passphraseEnc})`);
    }
  }
  return uids;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface FanOutFigures {
  n: number;
  open: number;
  failed: number;
  lastEntryMs: number;
  allProtectedMs: number;
  protection: ProtectionTimes;
}

async function fanOut(deps: Deps, handle: DbHandle, sandbox: RunningSandbox, baseUrl: string, n: number, prepare: (strategyId: string) => Promise<unknown>): Promise<FanOutFigures> {
  const uids = await insertCustomers(deps, sandbox, n);
  const strategy = await insertStrategy(deps, CustomerGroup.Gold);
  const tPrep = performance.now();
  await prepare(strategy.id);
  const prepMs = performance.now() - tPrep;
  await new Promise((resolve) => setTimeout(resolve, 5_500)); // let the per-IP windows drain after the preparation
  const rejectedBefore = sandbox.control.counters().rateLimitRejections.total;

  const t0 = Date.now();
  const response = await fetch(`${baseUrl}/api/webhook/${strategy.token}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'open' });
  const answerMs = Date.now() - t0;
  const answer = (await response.json()) as { data: { orderId: number; executions: number } };
  const orderId = answer.data.orderId;
  let openAt = 0;
  let counts = { open: 0, failed: 0 };
  for (;;) {
    const r = await handle.pool.query<{ open: number; failed: number; pending: number }>(
      `select count(*) filter (where state = 'open')::int as open, count(*) filter (where state in ('failed','skipped'))::int as failed, count(*) filter (where state = 'pending')::int as pending from executions where order_id = $1`,
      [orderId],
    );
    const row = r.rows[0]!;
    if (row.pending === 0) {
      openAt = Date.now();
      counts = { open: row.open, failed: row.failed };
      console.log(`  N=${n}: ${row.open} entries open, ${row.failed} failed`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const entryTimes: number[] = [];
  for (const exchange of ['bybit', 'bitget'] as const) {
    for (const uid of uids[exchange]) {
      const entry = sandbox.control.account(uid).orders.find((o) => o.clientOrderId.startsWith(`ct${orderId}-`) && o.clientOrderId.endsWith('-e'));
      if (entry) entryTimes.push(entry.createdAt);
    }
  }
  entryTimes.sort((a, b) => a - b);
  const ceilingMs = Math.max(uids.bybit.length / RATE.bybit, uids.bitget.length / RATE.bitget) * 1000;
  const lastAck = (entryTimes.at(-1) ?? t0) + LATENCY_MS - t0;
  const rejected = sandbox.control.counters().rateLimitRejections.total - rejectedBefore;
  console.log(
    [
      `  N=${n} (${uids.bybit.length} Bybit, ${uids.bitget.length} Bitget); leverage/mode set ahead in ${seconds(prepMs)}; webhook answered in ${answerMs} ms`,
      `    webhook receipt -> first entry at the exchange: ${entryTimes.length ? entryTimes[0]! - t0 : NaN} ms (includes ${LATENCY_MS} ms exchange latency)`,
      `    webhook receipt -> last entry acknowledged:     ${seconds(lastAck)} (all N executions recorded open in the DB: ${seconds(openAt - t0)})`,
      `    sandbox ceiling for N entry orders (N / per-IP rate, slower exchange): ${seconds(ceilingMs)}; ratio ${(lastAck / ceilingMs).toFixed(2)}x`,
      `    rate-limit errors from the sandbox: ${rejected}`,
    ].join('\n'),
  );
  // Let protection (TP/SL) finish before the next size, so it does not share the windows.
  for (;;) {
    const r = await handle.pool.query<{ n: number }>(`select count(*)::int as n from executions where order_id = $1 and state = 'open' and (protected_at is null or claimed_by is not null)`, [orderId]);
    if (r.rows[0]!.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const allProtectedMs = Date.now() - t0;
  const protection = protectionTimes(sandbox, [...uids.bybit, ...uids.bitget], orderId);
  console.log(`    TP legs and stop loss on every position after ${seconds(allProtectedMs)}`);
  console.log(`    each position's fill -> its stop (p50 / p99 / max): ${spreadText(protection.fillToStop)}; -> its last protective order: ${spreadText(protection.fillToLastLeg)}`);
  await new Promise((resolve) => setTimeout(resolve, 5_500));
  return { n, ...counts, lastEntryMs: lastAck, allProtectedMs, protection };
}

/** The table of the fan-out runs, then one BENCH_RESULT line per figure. */
function report(runs: FanOutFigures[]): void {
  console.log('\n| N | entries open / failed | webhook -> last entry | webhook -> every position protected | fill -> stop (p50 / p99 / max) | fill -> last protective order (p50 / p99 / max) |');
  console.log('|---|---|---|---|---|---|');
  for (const run of runs) {
    console.log(`| ${run.n} | ${run.open} / ${run.failed} | ${seconds(run.lastEntryMs)} | ${seconds(run.allProtectedMs)} | ${spreadText(run.protection.fillToStop)} | ${spreadText(run.protection.fillToLastLeg)} |`);
  }
  for (const run of runs) {
    const base = { benchmark: 'fanout', n: run.n };
    console.log(`BENCH_RESULT ${JSON.stringify({ ...base, figure: 'entries', open: run.open, failed: run.failed })}`);
    console.log(`BENCH_RESULT ${JSON.stringify({ ...base, figure: 'webhook_to_last_entry_ms', value: Math.round(run.lastEntryMs) })}`);
    console.log(`BENCH_RESULT ${JSON.stringify({ ...base, figure: 'fill_to_stop_ms', ...run.protection.fillToStop })}`);
    console.log(`BENCH_RESULT ${JSON.stringify({ ...base, figure: 'fill_to_last_protection_ms', ...run.protection.fillToLastLeg })}`);
  }
}

async function webhookLatency(deps: Deps, baseUrl: string): Promise<void> {
  const targets = [];
  for (let i = 0; i < 20; i += 1) targets.push(await insertStrategy(deps, CustomerGroup.Exclusive));
  const sequential: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const t = performance.now();
    const res = await fetch(`${baseUrl}/api/webhook/${targets[i % targets.length]!.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'open', alert_id: `s${i}` }) });
    await res.arrayBuffer();
    sequential.push(performance.now() - t);
  }
  sequential.sort((a, b) => a - b);
  console.log(`  webhook answers one at a time (200 alerts): p50 ${percentile(sequential, 50).toFixed(1)} ms, p99 ${percentile(sequential, 99).toFixed(1)} ms`);
  const rate = 200;
  const total = rate * 5;
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const target = targets[i % targets.length]!;
    const t = performance.now();
    sends.push(
      fetch(`${baseUrl}/api/webhook/${target.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'open', alert_id: `a${i}` }) })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status !== 200) errors += 1;
          latencies.push(performance.now() - t);
        })
        .catch(() => {
          errors += 1;
        }),
    );
  }
  await Promise.all(sends);
  latencies.sort((a, b) => a - b);
  console.log(`  webhook answers at ${rate} alerts/s for 5 s (${total} alerts, 20 strategies, open-loop): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, errors ${errors}`);
}

async function run(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'copytrade-bench-fanout-'));
  const embedded = await openEmbeddedPostgres(dataDir);
  const admin = new pg.Client({ connectionString: embedded.adminUrl });
  await admin.connect();
  await admin.query('create database bench_fanout');
  await admin.end();
  const handle = createDb(embedded.urlFor('bench_fanout'), { max: 40 });
  const sandbox = await startSandbox({ randomWalk: false });
  let app: FastifyInstance | undefined;
  let stopDispatcher: (() => Promise<void>) | undefined;
  try {
    await migrate(handle.pool);
    sandbox.control.setPrice('BTCUSDT', 60000);
    const config = { ...loadConfig({}), dataDir, databaseUrl: handle.url, masterKey: randomBytes(32).toString('base64'), logLevel: 'silent', runDispatcher: false };
    const deps = createDeps(config, handle, createLogger('silent'));
    app = await buildApp(deps);
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    useExchangeAccess(deps, { sandboxUrl: sandbox.url });
    const runtime = createTradingRuntime(deps, { config: { syncIntervalMs: 3_600_000, concurrency: 1_000 } });
    const dispatcher = createDispatcher(runtime, handle.pool);
    await dispatcher.start();
    stopDispatcher = () => dispatcher.stop();
    sandbox.control.setFaults([{ latencyMs: LATENCY_MS }]);
    console.log(`sandbox latency ${LATENCY_MS} ms per request; per-IP ceilings Bybit 600/5 s, Bitget 6000/min; one process`);
    const runs: FanOutFigures[] = [];
    for (const n of SIZES) runs.push(await fanOut(deps, handle, sandbox, baseUrl, n, (id) => prepareStrategyAccounts(runtime, id)));
    if (process.env.BENCH_FANOUT_WEBHOOK !== 'off') await webhookLatency(deps, baseUrl);
    report(runs);
  } finally {
    await stopDispatcher?.();
    await app?.close();
    await Promise.race([sandbox.close(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
    await handle.close();
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const fanoutBenchmark: Benchmark = {
  name: 'fanout',
  description:
    'one alert fanned out to 100 / 1,000 / 5,000 customers on the sandbox (50 ms latency, real per-IP ceilings): entries, and each position\'s fill -> stop and fill -> last protective order; webhook p50/p99 at 200 alerts/s',
  run,
};
