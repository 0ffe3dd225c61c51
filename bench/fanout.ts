import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CustomerGroup } from '../contract/enums';
import { openEmbeddedPostgres } from '../server/db/embedded';
import { ConnectionBudget, NEW_CONNECTION_CEILING } from '../server/trading/exchanges/bybit-ws/connection-budget';
import { PLANNED_SHARE, WINDOW_SLACK_MS } from '../server/trading/exchanges/rate-limiter';
import { webhookLoadElsewhere, type LoadResult } from './fanout-load';
import { protectionTimes, spreadOf, spreadText as timesText, type Spread } from './fanout-protection';
import { insertCustomers, insertStrategy, openEnvironment, SYMBOLS, type BenchCustomer, type BenchEnvironment } from './fanout-setup';
import type { Benchmark } from './benchmark';
import { benchFigures } from './figures';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';

/** One-way latency the sandbox adds to every request (issue 11's run shape). */
const LATENCY_MS = 2;
const LATENCY_ALERTS = 50;
const BYBIT_N = Number(process.env.BENCH_FANOUT_BYBIT ?? 5000);
const BITGET_N = Number(process.env.BENCH_FANOUT_BITGET ?? 1000);
/** Bybit accounts of the WebSocket fan-out, each with its warm /v5/trade session. */
const WS_BYBIT_N = Number(process.env.BENCH_FANOUT_WS_BYBIT ?? 5000);
/**
 * Bybit opens at most 500 new connections per 5 minutes and address: warming 5,000 sessions from one
 * address takes 50 minutes, which a process holding them does once, ahead of alerts. The benchmark
 * shortens that window (sandbox and engine alike, same 500 and 475 planned per window) so the sessions
 * are warm within a minute; every order limit stays as Bybit documents it.
 */
const WS_CONNECTION_WINDOW_MS = Number(process.env.BENCH_FANOUT_WS_WINDOW_MS ?? 3_000);
/** How long the WebSocket fan-out waits for its sessions to be open before the alert. */
const WS_WARM_WAIT_MS = 240_000;
type EntryPath = 'rest' | 'websocket';
/** Bitget's per-address ceiling: 6,000 requests a minute. */
const BITGET_PER_SECOND = 100;
/** How long the big fan-out waits for every placed position to have all its protective orders. */
const PROTECTION_WAIT_MS = 300_000;
/**
 * The parts of the run: `webhook` (webhook answers under load), `latency` (webhook -> first order),
 * `fanout` (the big fan-outs). `BENCH_FANOUT_PARTS=webhook,latency` runs only those; unset, all of them.
 */
const PARTS = ['webhook', 'latency', 'fanout'] as const;
type Part = (typeof PARTS)[number];
function partsWanted(value: string | undefined): ReadonlySet<Part> {
  if (!value) return new Set(PARTS);
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(PARTS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`BENCH_FANOUT_PARTS: unknown part(s) ${unknown.join(', ')}; known: ${PARTS.join(', ')}`);
  return new Set(names as Part[]);
}
const parts = partsWanted(process.env.BENCH_FANOUT_PARTS);

const { record, print: printFigures } = benchFigures('fanout', 1);
const spreadText = (s: Spread, unit = 'ms') => `${s.p50.toFixed(1)} / ${s.p99.toFixed(1)} ${unit}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recordLoad(name: string, label: string, result: LoadResult): void {
  record(`${name}_p50_ms`, result.answers.p50, 'ms', `${label}: p50`);
  record(`${name}_p99_ms`, result.answers.p99, 'ms', `${label}: p99`);
  record(`${name}_errors`, result.errors, 'count', `${label}: errors (of ${result.alerts})`);
}

/**
 * Entry orders of an Order on the sandbox, per customer (the deterministic client id `ct{order}-{customer}-e`):
 * when each reached the exchange (`times`: read off the connection plus the simulated latency), when the
 * sandbox created it after its own checks (`created`), and whether one filled (an entry the book could
 * not fill is cancelled: no position).
 */
async function entriesOf(
  sandbox: SandboxProcess,
  customers: BenchCustomer[],
  orderId: number,
): Promise<Array<{ customer: BenchCustomer; times: number[]; created: number[]; filled: boolean }>> {
  const accounts = await Promise.all(customers.map((customer) => sandbox.control.account(customer.uid)));
  return customers.map((customer, i) => {
    const entries = accounts[i]!.orders.filter((order) => order.clientOrderId === `ct${orderId}-${customer.customerId}-e`);
    return { customer, times: entries.map((order) => order.receivedAt), created: entries.map((order) => order.createdAt), filled: entries.some((order) => order.filledQty > 0) };
  });
}

async function post(env: BenchEnvironment, token: string, body: string): Promise<{ orderId: number }> {
  const response = await fetch(`${env.baseUrl}/api/webhook/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const answer = (await response.json()) as { data: { orderId: number } };
  return answer.data;
}

/** When the server received the alert of an Order: its signal's `received_at` (stamped as the alert enters intake, ms), in epoch ms. */
async function receivedAt(env: BenchEnvironment, orderId: number): Promise<number> {
  const result = await env.handle.pool.query<{ ms: string }>(
    'select (extract(epoch from s.received_at) * 1000)::bigint as ms from orders o join signals s on s.id = o.signal_id where o.id = $1',
    [orderId],
  );
  return Number(result.rows[0]!.ms);
}

/**
 * Webhook received (the server's own stamp) -> first order received by the exchange (the sandbox's
 * stamp, same clock: its request read off the connection plus the simulated latency), minus the
 * simulated latency, one alert at a time, in all and per exchange; also to the order's creation after
 * the sandbox's own checks and timers, and from before the bench's client sent the alert (its own time
 * added: it runs in the server's process).
 */
async function firstOrderLatency(env: BenchEnvironment, sandbox: SandboxProcess, path: EntryPath): Promise<void> {
  const targets: Array<{ token: string; customer: BenchCustomer }> = [];
  // Two warm-up alerts (one per exchange) first: markets and connections are loaded once per process, not per alert.
  for (let i = -2; i < LATENCY_ALERTS; i += 1) {
    const [customer] = await insertCustomers(env.deps, sandbox, { count: 1, exchange: i % 2 === 0 ? 'bybit' : 'bitget', group: CustomerGroup.Exclusive });
    const strategy = await insertStrategy(env.deps, { groups: [CustomerGroup.Exclusive, CustomerGroup.Internal], exclusiveCustomerId: customer!.customerId });
    targets.push({ token: strategy.token, customer: customer! });
  }
  await sleep(3_000); // the new accounts are warm (keys, settings, Bybit sessions) before the first alert
  const latencies: number[] = [];
  const byExchange: Record<BenchCustomer['exchange'], number[]> = { bybit: [], bitget: [] };
  const toCreation: number[] = [];
  const fromClient: number[] = [];
  const positions: Array<{ uid: string; orderId: number }> = [];
  for (const [i, target] of targets.entries()) {
    const warmUp = i < 2;
    const t0 = Date.now();
    const { orderId } = await post(env, target.token, `{"action":"open","alert_id":"lat${i}"}`);
    if (!warmUp) positions.push({ uid: target.customer.uid, orderId });
    for (let waited = 0; waited < 5_000; waited += 2) {
      const [entry] = await entriesOf(sandbox, [target.customer], orderId);
      if (entry!.times.length > 0) {
        if (!warmUp) {
          const received = await receivedAt(env, orderId);
          latencies.push(entry!.times[0]! - received - LATENCY_MS);
          byExchange[target.customer.exchange].push(entry!.times[0]! - received - LATENCY_MS);
          toCreation.push(entry!.created[0]! - received - LATENCY_MS);
          fromClient.push(entry!.times[0]! - t0 - LATENCY_MS);
        }
        break;
      }
      await sleep(2);
    }
    await sleep(150);
  }
  const spread = spreadOf(latencies);
  console.log(`  [${path}] webhook -> first order at the exchange, minus ${LATENCY_MS} ms latency (${latencies.length} of ${LATENCY_ALERTS} alerts, half Bybit): p50 / p99 ${spreadText(spread)}`);
  record(`${path}_first_order_p50_ms`, spread.p50, 'ms', `[${path}] webhook received -> first order received by the exchange, minus latency: p50`);
  record(`${path}_first_order_p99_ms`, spread.p99, 'ms', `[${path}] webhook received -> first order received by the exchange, minus latency: p99`);
  for (const exchange of ['bybit', 'bitget'] as const) {
    const one = spreadOf(byExchange[exchange]);
    const over = exchange === 'bybit' ? path : 'rest';
    console.log(`  [${path}] the same, ${exchange} alone (${over}): p50 / p99 ${spreadText(one)}`);
    record(`${path}_first_order_${exchange}_p50_ms`, one.p50, 'ms', `[${path}] the same, ${exchange} alone (${over}): p50`);
  }
  const created = spreadOf(toCreation);
  console.log(`  [${path}] the same to the order's creation in the sandbox (after its checks and its latency timer): p50 / p99 ${spreadText(created)}`);
  record(`${path}_first_order_created_p50_ms`, created.p50, 'ms', `[${path}] webhook received -> first order created by the sandbox (after its checks), minus latency: p50`);
  const client = spreadOf(fromClient);
  console.log(`  [${path}] the same from before the load generator's request (its own HTTP client included): p50 / p99 ${spreadText(client)}`);
  record(`${path}_first_order_from_client_p50_ms`, client.p50, 'ms', `[${path}] webhook sent by the bench's client -> first order received by the exchange, minus latency: p50`);
  record(`${path}_first_order_from_client_p99_ms`, client.p99, 'ms', `[${path}] webhook sent by the bench's client -> first order received by the exchange, minus latency: p99`);
  for (let waited = 0; waited < 30_000; waited += 200) {
    const r = await env.handle.pool.query<{ n: number }>(`select count(*)::int as n from executions where state = 'open' and (protected_at is null or claimed_by is not null)`);
    if (r.rows[0]!.n === 0) break;
    await sleep(200);
  }
  const protection = await protectionTimes(sandbox, positions);
  console.log(`  those ${protection.positions} positions: fill -> stop (p50 / p99 / max) ${timesText(protection.fillToStop)}; fill -> last protective order ${timesText(protection.fillToLastLeg)}`);
  record(`${path}_fill_to_stop_p99_ms`, protection.fillToStop.p99, 'ms', `[${path}] fill -> its stop on the exchange: p99 (the latency alerts)`);
  record(`${path}_fill_to_last_protection_p99_ms`, protection.fillToLastLeg.p99, 'ms', `[${path}] fill -> its last protective order: p99 (the latency alerts)`);
}

/** One alert to `BYBIT_N` Bybit and `BITGET_N` Bitget customers, one process, one address, REST. */
async function bigFanOut(env: BenchEnvironment, sandbox: SandboxProcess, path: EntryPath, sizes: { bybit: number; bitget: number }): Promise<void> {
  const socketsBefore = { trade: (await sandbox.control.counters()).tradeSockets.open, synced: (env.deps.exchanges.adapters.bybit.health?.().privateStreams.synced ?? 0) };
  const bybit = await insertCustomers(env.deps, sandbox, { count: sizes.bybit, exchange: 'bybit', group: CustomerGroup.Gold });
  const bitget = await insertCustomers(env.deps, sandbox, { count: sizes.bitget, exchange: 'bitget', group: CustomerGroup.Gold });
  const strategy = await insertStrategy(env.deps, { groups: [CustomerGroup.Gold], ladder: true });
  if (path === 'websocket') await sessionsWarm(env, sandbox, socketsBefore, sizes.bybit);
  await sleep(5_500); // the per-address windows drain after the latency phase
  const rejectedBefore = (await sandbox.control.counters()).rateLimitRejections.total;
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
  const rejected = (await sandbox.control.counters()).rateLimitRejections.total - rejectedBefore;
  const rss = process.memoryUsage().rss / 2 ** 20;
  // An acknowledged entry is 'open' before its fill is read: the states are compared once every position is protected.
  await waitUntilProtected(env, orderId);
  const stateRows = await env.handle.pool.query<{ customer_id: number; state: string }>(`select customer_id, state from executions where order_id = $1`, [orderId]);
  const stateOf = new Map(stateRows.rows.map((row) => [Number(row.customer_id), row.state]));
  for (const [exchange, customers, ideal] of [['bybit', bybit, null], ['bitget', bitget, sizes.bitget / BITGET_PER_SECOND]] as const) {
    if (customers.length === 0) continue;
    const entries = await entriesOf(sandbox, customers, orderId);
    const times = entries.flatMap((e) => e.times);
    if (times.length === 0) {
      console.log(`  [${path}] ${customers.length} ${exchange} accounts: no entry placed before the 30 s deadline`);
      record(`${path}_${exchange}_${customers.length}_placed`, 0, 'count', `[${path}] ${customers.length} ${exchange} accounts: entries placed`);
      continue;
    }
    const last = Math.max(...times) - t0 - LATENCY_MS;
    const without = entries.filter((e) => e.times.length === 0).length;
    // Lost: the exchange and the database disagree (a filled entry nobody recorded as a position, or an open execution without one).
    const lost = entries.filter((e) => (stateOf.get(e.customer.customerId) === 'open') !== e.filled).length;
    const doubled = entries.filter((e) => e.times.length > 1).length;
    const n = customers.length;
    console.log(`  [${path}] ${n} ${exchange} accounts, one process, one address: received -> last order received ${(last / 1000).toFixed(2)} s${ideal ? ` (ceiling ${ideal.toFixed(1)} s)` : ''}; without an entry (dropped at the deadline, audited) ${without}, lost ${lost}, doubled ${doubled}`);
    const over = exchange === 'bitget' ? 'REST' : path;
    record(`${path}_${exchange}_${n}_last_order_s`, last / 1000, 's', `[${path}] ${n} ${exchange} accounts (${over}), one process, one address: received -> last order received`);
    if (ideal) record(`${path}_${exchange}_${n}_vs_ceiling`, last / 1000 / ideal, 'ratio', `[${path}] ${n} Bitget accounts: time over the address ceiling's ${ideal.toFixed(1)} s`);
    record(`${path}_${exchange}_${n}_without_entry`, without, 'count', `[${path}] ${n} ${exchange} accounts: entries dropped at the 30 s deadline (audited)`);
    record(`${path}_${exchange}_${n}_lost_orders`, lost, 'count', `[${path}] ${n} ${exchange} accounts: lost (exchange and database disagree)`);
    record(`${path}_${exchange}_${n}_doubled_orders`, doubled, 'count', `[${path}] ${n} ${exchange} accounts: customers with two entries`);
  }
  await bigFanOutProtection(env, sandbox, path, { bybit, bitget }, orderId);
  console.log(`  [${path}] executions failed or skipped: ${states.failed}, still pending: ${states.pending}; rate-limit errors from the sandbox: ${rejected}; RSS ${rss.toFixed(0)} MiB (the sandbox's process: ${sandbox.rssMib().toFixed(0)} MiB)`);
  record(`${path}_fanout_failed_executions`, states.failed, 'count', `[${path}] big fan-out: executions failed or skipped (entry deadline 30 s)`);
  record(`${path}_fanout_rate_limit_errors`, rejected, 'count', `[${path}] big fan-out: rate-limit errors from the sandbox`);
  record(`${path}_fanout_process_rss_mib`, rss, 'MiB', `[${path}] RSS of the process (API, dispatcher, ${path === 'websocket' ? `${sizes.bybit} Bybit sessions` : 'no sessions'}) after the fan-out`);
}

/**
 * Waits (bounded) until the sandbox holds `count` more open /v5/trade sockets than `before`, and the engine
 * holds that many more Bybit private streams synced (open and caught up over REST, as a process holding
 * them is before its alerts: both count in the address's new-connection window, and each catch-up reads
 * the account over the REST budget); prints how long it took.
 */
async function sessionsWarm(env: BenchEnvironment, sandbox: SandboxProcess, before: { trade: number; synced: number }, count: number): Promise<void> {
  const started = Date.now();
  const syncedBefore = before.synced;
  let open = 0;
  let synced = 0;
  while (Date.now() - started < WS_WARM_WAIT_MS) {
    open = (await sandbox.control.counters()).tradeSockets.open - before.trade;
    synced = (env.deps.exchanges.adapters.bybit.health?.().privateStreams.synced ?? 0) - syncedBefore;
    if (open >= count && synced >= count) break;
    await sleep(200);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`  [websocket] ${open} of ${count} trade sessions open and ${synced} private streams synced after ${seconds} s (new-connection window shortened to ${WS_CONNECTION_WINDOW_MS} ms)`);
  record('websocket_sessions_open', open, 'count', `[websocket] warm /v5/trade sessions before the big alert (of ${count})`);
  record('websocket_private_streams_synced', synced, 'count', `[websocket] Bybit private streams synced before the big alert (of ${count})`);
}

/** Waits (bounded by PROTECTION_WAIT_MS) until every open execution of the Order has its protection. */
async function waitUntilProtected(env: BenchEnvironment, orderId: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const r = await env.handle.pool.query<{ n: number }>(`select count(*)::int as n from executions where order_id = $1 and state = 'open' and protected_at is null`, [orderId]);
    if (r.rows[0]!.n === 0 || Date.now() - started > PROTECTION_WAIT_MS) return;
    await sleep(200);
  }
}

/**
 * Issue 9's protection timings of the big fan-out: per exchange, each placed position's fill -> its stop
 * and -> its last protective order (stop and three take-profit legs), once every position is protected
 * (bounded wait).
 */
async function bigFanOutProtection(env: BenchEnvironment, sandbox: SandboxProcess, path: EntryPath, accounts: Record<'bybit' | 'bitget', BenchCustomer[]>, orderId: number): Promise<void> {
  await waitUntilProtected(env, orderId);
  for (const exchange of ['bybit', 'bitget'] as const) {
    if (accounts[exchange].length === 0) continue;
    const times = await protectionTimes(sandbox, accounts[exchange].map((customer) => ({ uid: customer.uid, orderId })));
    const n = accounts[exchange].length;
    console.log(`  [${path}] ${n} ${exchange} accounts, ${times.positions} positions: fill -> stop (p50 / p99 / max) ${timesText(times.fillToStop)}; fill -> last protective order ${timesText(times.fillToLastLeg)}`);
    for (const [figure, spread] of [['fill_to_stop', times.fillToStop], ['fill_to_last_protection', times.fillToLastLeg]] as const) {
      for (const key of ['p50', 'p99', 'max'] as const) {
        record(`${path}_${exchange}_${n}_${figure}_${key}_ms`, spread[key], 'ms', `[${path}] ${n} ${exchange} accounts: ${figure === 'fill_to_stop' ? 'fill -> stop' : 'fill -> last protective order'} ${key} (${times.positions} positions)`);
      }
    }
  }
}

/** Each webhook load runs this long unmeasured first, at its own rate. */
const WEBHOOK_WARM_SECONDS = 2;

/** Webhook answers of an API process (RUN_DISPATCHER=false): strategies without customers, then with 100 customers each. */
async function webhookThroughput(env: BenchEnvironment): Promise<void> {
  const bare = [];
  for (let i = 0; i < 100; i += 1) bare.push((await insertStrategy(env.deps, { groups: [CustomerGroup.Vip], symbol: SYMBOLS[i % SYMBOLS.length] })).token);
  const empty = await webhookLoadElsewhere(env.baseUrl, bare, 500, 4, 'e', WEBHOOK_WARM_SECONDS);
  console.log(`  webhook answers, 500 alerts/s for 4 s (after ${WEBHOOK_WARM_SECONDS} s unmeasured) over 100 strategies without customers: p50 / p99 ${spreadText(empty.answers)}, errors ${empty.errors}`);
  recordLoad('webhook_500s_empty', 'webhook answers, 500 alerts/s over 100 strategies, no customers', empty);

  await insertCustomers(env.deps, null, { count: 100, exchange: 'bybit', group: CustomerGroup.Occasion });
  const full = [];
  for (let i = 0; i < 100; i += 1) full.push((await insertStrategy(env.deps, { groups: [CustomerGroup.Occasion], symbol: SYMBOLS[i % SYMBOLS.length] })).token);
  const loaded = await webhookLoadElsewhere(env.baseUrl, full, 100, 3, 'f', WEBHOOK_WARM_SECONDS);
  console.log(`  webhook answers, 100 alerts/s for 3 s (after ${WEBHOOK_WARM_SECONDS} s unmeasured) over 100 strategies with 100 customers each: p50 / p99 ${spreadText(loaded.answers)}, errors ${loaded.errors}`);
  recordLoad('webhook_100s_100customers', 'webhook answers, 100 alerts/s over 100 strategies, 100 customers each', loaded);
}

async function run(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'copytrade-bench-fanout-'));
  const embedded = await openEmbeddedPostgres(dataDir);
  const sandbox = await startSandboxProcess({ randomWalk: false, tradeConnectionsPerIp: { limit: NEW_CONNECTION_CEILING.limit, windowMs: WS_CONNECTION_WINDOW_MS } });
  const opened: BenchEnvironment[] = [];
  try {
    await sandbox.control.setPrice('BTCUSDT', 60000);
    await sandbox.control.setPrice('ETHUSDT', 3000);
    await sandbox.control.setFaults([{ latencyMs: LATENCY_MS }]);
    console.log(`sandbox one-way latency ${LATENCY_MS} ms; per-address ceilings Bybit 600 / 5 s (REST), 3,000 orders / s (WebSocket), Bitget 6,000 / min; everything on this machine, the sandbox in a process of its own`);
    const tradeConnectionBudget = new ConnectionBudget(Math.floor(NEW_CONNECTION_CEILING.limit * PLANNED_SHARE), WS_CONNECTION_WINDOW_MS + WINDOW_SLACK_MS);
    const open = (name: string, withDispatcher: boolean, bybitOrderEntry: EntryPath) =>
      openEnvironment(embedded.adminUrl, (db) => embedded.urlFor(db), name, sandbox, { withDispatcher, bybitOrderEntry, tradeConnectionBudget });
    console.log(`parts: ${[...parts].join(', ')}`);
    if (parts.has('webhook')) {
      const intake = await open('bench_intake', false, 'rest');
      opened.push(intake);
      await webhookThroughput(intake);
      await intake.close();
      opened.pop();
    }
    if (parts.has('latency') || parts.has('fanout')) {
      const ws = await open('bench_ws', true, 'websocket');
      opened.push(ws);
      if (parts.has('latency')) await firstOrderLatency(ws, sandbox, 'websocket');
      if (parts.has('fanout')) await bigFanOut(ws, sandbox, 'websocket', { bybit: WS_BYBIT_N, bitget: 0 });
      await ws.close();
      opened.pop();
      await sleep(5_500); // the per-address windows drain between the runs
      const rest = await open('bench_rest', true, 'rest');
      opened.push(rest);
      if (parts.has('latency')) await firstOrderLatency(rest, sandbox, 'rest');
      if (parts.has('fanout')) await bigFanOut(rest, sandbox, 'rest', { bybit: BYBIT_N, bitget: BITGET_N });
    }
    printFigures();
  } finally {
    for (const env of opened) await env.close();
    await sandbox.close();
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const fanoutBenchmark: Benchmark = {
  name: 'fanout',
  description: `issue 11's figures on the sandbox (${LATENCY_MS} ms latency, real per-address ceilings), WebSocket and REST: webhook -> first order p50/p99, ${WS_BYBIT_N} Bybit accounts over WebSocket, ${BYBIT_N} Bybit + ${BITGET_N} Bitget over REST, webhook answers at 500/s and 100/s x 100 customers, RSS`,
  run,
};
