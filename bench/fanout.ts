import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CustomerGroup } from '../contract/enums';
import { openEmbeddedPostgres } from '../server/db/embedded';
import { startSandbox, type RunningSandbox } from '../server/sandbox/index';
import { webhookLoadElsewhere, type LoadResult } from './fanout-load';
import { protectionTimes, spreadOf, spreadText as timesText, type Spread } from './fanout-protection';
import { insertCustomers, insertStrategy, openEnvironment, SYMBOLS, type BenchCustomer, type BenchEnvironment } from './fanout-setup';
import type { Benchmark } from './run';

/** One-way latency the sandbox adds to every request (issue 11's run shape). */
const LATENCY_MS = 2;
const LATENCY_ALERTS = 50;
const BYBIT_N = Number(process.env.BENCH_FANOUT_BYBIT ?? 5000);
const BITGET_N = Number(process.env.BENCH_FANOUT_BITGET ?? 1000);
/** Bitget's per-address ceiling: 6,000 requests a minute. */
const BITGET_PER_SECOND = 100;

interface Figure {
  name: string;
  value: number;
  unit: string;
  label: string;
}

const figures: Figure[] = [];
const record = (name: string, value: number, unit: string, label: string) => figures.push({ name, value: Number(value.toFixed(1)), unit, label });
const spreadText = (s: Spread, unit = 'ms') => `${s.p50.toFixed(1)} / ${s.p99.toFixed(1)} ${unit}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recordLoad(name: string, label: string, result: LoadResult): void {
  record(`${name}_p50_ms`, result.answers.p50, 'ms', `${label}: p50`);
  record(`${name}_p99_ms`, result.answers.p99, 'ms', `${label}: p99`);
  record(`${name}_errors`, result.errors, 'count', `${label}: errors (of ${result.alerts})`);
}

/** Entry orders of an Order on the sandbox, per customer (the deterministic client id `ct{order}-{customer}-e`). */
function entriesOf(sandbox: RunningSandbox, customers: BenchCustomer[], orderId: number): Array<{ customer: BenchCustomer; times: number[] }> {
  return customers.map((customer) => ({
    customer,
    times: sandbox.control
      .account(customer.uid)
      .orders.filter((order) => order.clientOrderId === `ct${orderId}-${customer.customerId}-e`)
      .map((order) => order.createdAt),
  }));
}

async function post(env: BenchEnvironment, token: string, body: string): Promise<{ orderId: number }> {
  const response = await fetch(`${env.baseUrl}/api/webhook/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const answer = (await response.json()) as { data: { orderId: number } };
  return answer.data;
}

/** Webhook received -> first order received by the exchange, minus the simulated latency, one alert at a time. */
async function firstOrderLatency(env: BenchEnvironment, sandbox: RunningSandbox): Promise<void> {
  const targets: Array<{ token: string; customer: BenchCustomer }> = [];
  // Two warm-up alerts (one per exchange) first: markets and connections are loaded once per process, not per alert.
  for (let i = -2; i < LATENCY_ALERTS; i += 1) {
    const [customer] = await insertCustomers(env.deps, sandbox, { count: 1, exchange: i % 2 === 0 ? 'bybit' : 'bitget', group: CustomerGroup.Exclusive });
    const strategy = await insertStrategy(env.deps, { groups: [CustomerGroup.Exclusive, CustomerGroup.Internal], exclusiveCustomerId: customer!.customerId });
    targets.push({ token: strategy.token, customer: customer! });
  }
  const latencies: number[] = [];
  const positions: Array<{ uid: string; orderId: number }> = [];
  for (const [i, target] of targets.entries()) {
    const warmUp = i < 2;
    const t0 = Date.now();
    const { orderId } = await post(env, target.token, `{"action":"open","alert_id":"lat${i}"}`);
    if (!warmUp) positions.push({ uid: target.customer.uid, orderId });
    for (let waited = 0; waited < 5_000; waited += 2) {
      const [entry] = entriesOf(sandbox, [target.customer], orderId);
      if (entry!.times.length > 0) {
        if (!warmUp) latencies.push(entry!.times[0]! - t0 - LATENCY_MS);
        break;
      }
      await sleep(2);
    }
    await sleep(150);
  }
  const spread = spreadOf(latencies);
  console.log(`  webhook -> first order at the exchange, minus ${LATENCY_MS} ms latency (${latencies.length} of ${LATENCY_ALERTS} alerts): p50 / p99 ${spreadText(spread)}`);
  record('first_order_p50_ms', spread.p50, 'ms', 'webhook received -> first order received by the exchange, minus latency: p50');
  record('first_order_p99_ms', spread.p99, 'ms', 'webhook received -> first order received by the exchange, minus latency: p99');
  for (let waited = 0; waited < 30_000; waited += 200) {
    const r = await env.handle.pool.query<{ n: number }>(`select count(*)::int as n from executions where state = 'open' and (protected_at is null or claimed_by is not null)`);
    if (r.rows[0]!.n === 0) break;
    await sleep(200);
  }
  const protection = protectionTimes(sandbox, positions);
  console.log(`  those ${protection.positions} positions: fill -> stop (p50 / p99 / max) ${timesText(protection.fillToStop)}; fill -> last protective order ${timesText(protection.fillToLastLeg)}`);
  record('fill_to_stop_p99_ms', protection.fillToStop.p99, 'ms', 'fill -> its stop on the exchange: p99 (the latency alerts)');
  record('fill_to_last_protection_p99_ms', protection.fillToLastLeg.p99, 'ms', 'fill -> its last protective order: p99 (the latency alerts)');
}

/** One alert to `BYBIT_N` Bybit and `BITGET_N` Bitget customers, one process, one address, REST. */
async function bigFanOut(env: BenchEnvironment, sandbox: RunningSandbox): Promise<void> {
  const bybit = await insertCustomers(env.deps, sandbox, { count: BYBIT_N, exchange: 'bybit', group: CustomerGroup.Gold });
  const bitget = await insertCustomers(env.deps, sandbox, { count: BITGET_N, exchange: 'bitget', group: CustomerGroup.Gold });
  const strategy = await insertStrategy(env.deps, { groups: [CustomerGroup.Gold] });
  await sleep(5_500); // the per-address windows drain after the latency phase
  const rejectedBefore = sandbox.control.counters().rateLimitRejections.total;
  const t0 = Date.now();
  const { orderId } = await post(env, strategy.token, '{"action":"open","alert_id":"big"}');
  const until = Date.now() + 240_000;
  let states = { pending: 0, failed: 0 };
  for (;;) {
    const r = await env.handle.pool.query<{ pending: number; failed: number }>(
      `select count(*) filter (where state = 'pending')::int as pending, count(*) filter (where state in ('failed', 'skipped'))::int as failed from executions where order_id = $1`,
      [orderId],
    );
    states = r.rows[0]!;
    if (states.pending === 0 || Date.now() > until) break;
    await sleep(50);
  }
  const rejected = sandbox.control.counters().rateLimitRejections.total - rejectedBefore;
  const rss = process.memoryUsage().rss / 2 ** 20;
  for (const [exchange, customers, ideal] of [['bybit', bybit, null], ['bitget', bitget, BITGET_N / BITGET_PER_SECOND]] as const) {
    if (customers.length === 0) continue;
    const entries = entriesOf(sandbox, customers, orderId);
    const last = Math.max(...entries.flatMap((e) => e.times)) - t0 - LATENCY_MS;
    const lost = entries.filter((e) => e.times.length === 0).length;
    const doubled = entries.filter((e) => e.times.length > 1).length;
    const n = customers.length;
    console.log(`  ${n} ${exchange} accounts over REST, one address: received -> last order received ${(last / 1000).toFixed(2)} s${ideal ? ` (ceiling ${ideal.toFixed(1)} s)` : ''}; lost ${lost}, doubled ${doubled}`);
    record(`${exchange}_${n}_rest_last_order_s`, last / 1000, 's', `${n} ${exchange} accounts, REST, one process, one address: received -> last order received`);
    if (ideal) record(`${exchange}_${n}_rest_vs_ceiling`, last / 1000 / ideal, 'ratio', `${n} Bitget accounts: time over the address ceiling's ${ideal.toFixed(1)} s`);
    record(`${exchange}_${n}_lost_orders`, lost, 'count', `${n} ${exchange} accounts: customers without their entry`);
    record(`${exchange}_${n}_doubled_orders`, doubled, 'count', `${n} ${exchange} accounts: customers with two entries`);
  }
  console.log(`  executions failed or skipped: ${states.failed}, still pending: ${states.pending}; rate-limit errors from the sandbox: ${rejected}; RSS ${rss.toFixed(0)} MiB`);
  record('fanout_failed_executions', states.failed, 'count', 'big fan-out: executions failed or skipped');
  record('fanout_rate_limit_errors', rejected, 'count', 'big fan-out: rate-limit errors from the sandbox');
  record('fanout_process_rss_mib', rss, 'MiB', `RSS of the process (API, dispatcher, sandbox) holding ${BYBIT_N + BITGET_N} accounts after the fan-out`);
}

/** Webhook answers of an API process (RUN_DISPATCHER=false): strategies without customers, then with 100 customers each. */
async function webhookThroughput(env: BenchEnvironment): Promise<void> {
  const bare = [];
  for (let i = 0; i < 100; i += 1) bare.push((await insertStrategy(env.deps, { groups: [CustomerGroup.Vip], symbol: SYMBOLS[i % SYMBOLS.length] })).token);
  await webhookLoadElsewhere(env.baseUrl, bare, 100, 1, 'warm');
  const empty = await webhookLoadElsewhere(env.baseUrl, bare, 500, 4, 'e');
  console.log(`  webhook answers, 500 alerts/s for 4 s over 100 strategies without customers: p50 / p99 ${spreadText(empty.answers)}, errors ${empty.errors}`);
  recordLoad('webhook_500s_empty', 'webhook answers, 500 alerts/s over 100 strategies, no customers', empty);

  await insertCustomers(env.deps, null, { count: 100, exchange: 'bybit', group: CustomerGroup.Occasion });
  const full = [];
  for (let i = 0; i < 100; i += 1) full.push((await insertStrategy(env.deps, { groups: [CustomerGroup.Occasion], symbol: SYMBOLS[i % SYMBOLS.length] })).token);
  const loaded = await webhookLoadElsewhere(env.baseUrl, full, 100, 3, 'f');
  console.log(`  webhook answers, 100 alerts/s for 3 s over 100 strategies with 100 customers each: p50 / p99 ${spreadText(loaded.answers)}, errors ${loaded.errors}`);
  recordLoad('webhook_100s_100customers', 'webhook answers, 100 alerts/s over 100 strategies, 100 customers each', loaded);
}

async function run(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'copytrade-bench-fanout-'));
  const embedded = await openEmbeddedPostgres(dataDir);
  const sandbox = await startSandbox({ randomWalk: false });
  const opened: BenchEnvironment[] = [];
  try {
    sandbox.control.setPrice('BTCUSDT', 60000);
    sandbox.control.setPrice('ETHUSDT', 3000);
    sandbox.control.setFaults([{ latencyMs: LATENCY_MS }]);
    console.log(`sandbox one-way latency ${LATENCY_MS} ms; per-address ceilings Bybit 600 / 5 s, Bitget 6,000 / min; everything on this machine; REST (WebSocket order entry: not built yet)`);
    const intake = await openEnvironment(embedded.adminUrl, (db) => embedded.urlFor(db), 'bench_intake', sandbox, false);
    opened.push(intake);
    await webhookThroughput(intake);
    await intake.close();
    opened.pop();
    const trading = await openEnvironment(embedded.adminUrl, (db) => embedded.urlFor(db), 'bench_fanout', sandbox, true);
    opened.push(trading);
    await firstOrderLatency(trading, sandbox);
    await bigFanOut(trading, sandbox);
    console.log('\n| Figure | Value |\n|---|---|');
    for (const figure of figures) console.log(`| ${figure.label} | ${figure.value} ${figure.unit} |`);
    for (const figure of figures) console.log(`BENCH_RESULT ${JSON.stringify({ name: `fanout.${figure.name}`, value: figure.value, unit: figure.unit })}`);
  } finally {
    for (const env of opened) await env.close();
    await Promise.race([sandbox.close(), sleep(2_000)]);
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const fanoutBenchmark: Benchmark = {
  name: 'fanout',
  description: `issue 11's figures on the sandbox (${LATENCY_MS} ms latency, real per-address ceilings): webhook -> first order p50/p99, ${BYBIT_N} Bybit + ${BITGET_N} Bitget accounts over REST, webhook answers at 500/s and 100/s x 100 customers, RSS`,
  run,
};
