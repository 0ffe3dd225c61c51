import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Benchmark } from './benchmark';

const SESSIONS = 5000;
/** Bybit allows 500 new connections per address in 5 minutes (we plan 475): 11 loopback addresses open 5,000 at once. */
const ADDRESSES = 11;
const CCXT_INSTANCES = 200;
const GOAL_MB = 1024;

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

function child(file: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', '--expose-gc', here(file), ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
}

/** The first stdout line of `process` starting with `prefix`, parsed. */
function lineOf<T>(process: ChildProcess, prefix: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: process.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith(`${prefix} `)) resolve(JSON.parse(line.slice(prefix.length + 1)) as T);
    });
    process.once('exit', (code) => reject(new Error(`${prefix}: the child process ended (${code}) without it`)));
  });
}

async function run(): Promise<void> {
  const ccxtCost = await lineOf<Record<string, number>>(child('ws-sessions-client.ts', ['ccxt', String(CCXT_INSTANCES)]), 'RESULT');
  const sandbox = child('ws-sessions-sandbox.ts', [String(SESSIONS)]);
  try {
    const { tradeSocketUrl, url, controlToken } = await lineOf<{ tradeSocketUrl: string; url: string; controlToken: string }>(sandbox, 'READY');
    const lean = await lineOf<Record<string, number>>(child('ws-sessions-client.ts', ['sessions', tradeSocketUrl, String(SESSIONS), String(ADDRESSES)]), 'RESULT');
    const counters = (await (await fetch(`${url}/control/counters`, { headers: { 'x-sandbox-control': controlToken } })).json()) as { tradeSockets: { refusedByIp: Record<string, number> }; rateLimitRejections: { total: number } };
    const refused = Object.values(counters.tradeSockets.refusedByIp).reduce((a, b) => a + b, 0);
    const ccxtMb = (ccxtCost.perInstanceMb ?? 0) * SESSIONS;
    console.log(`sandbox in its own process; client in another (RSS is the client's); ${ADDRESSES} loopback addresses, ${Math.ceil(SESSIONS / ADDRESSES)} sessions each`);
    console.log('\n| Figure | Value |');
    console.log('|---|---|');
    console.log(`| sessions open / asked | ${lean.open} / ${SESSIONS} |`);
    console.log(`| time to warm ${SESSIONS} authenticated sessions | ${lean.warmMs} ms |`);
    console.log(`| client RSS before / with the sessions (goal <= ${GOAL_MB} MB) | ${lean.baselineRssMb} / ${lean.warmRssMb} MB |`);
    console.log(`| per session: RSS / heap | ${lean.perSessionKb} / ${lean.heapPerSessionKb} KB |`);
    console.log(`| one order.create per session: acknowledged, last ack after | ${lean.ordersAcked} / ${SESSIONS}, ${lean.ordersMs} ms |`);
    console.log(`| connections refused by the sandbox (500 new / 5 min / address) / rate-limit refusals | ${refused} / ${counters.rateLimitRejections.total} |`);
    console.log(`| ccxt pro Bybit instance (createOrderWs needs one per account): construct / RSS / heap | ${ccxtCost.constructMs} ms / ${ccxtCost.perInstanceMb} MB / ${ccxtCost.heapPerInstanceMb} MB |`);
    console.log(`| ${SESSIONS} ccxt pro instances, before any socket (extrapolated) | ${Math.round(ccxtMb)} MB |`);
    const result = (name: string, value: number, unit: string) => console.log(`BENCH_RESULT ${JSON.stringify({ name, value, unit })}`);
    result('ws_sessions_rss', lean.warmRssMb ?? 0, 'MB');
    result('ws_sessions_rss_per_session', lean.perSessionKb ?? 0, 'KB');
    result('ws_sessions_warm_ms', lean.warmMs ?? 0, 'ms');
    result('ws_sessions_open', lean.open ?? 0, 'sessions');
    result('ws_sessions_orders_last_ack_ms', lean.ordersMs ?? 0, 'ms');
    result('ws_sessions_refused_connections', refused, 'connections');
    result('ccxt_pro_instance_rss', ccxtCost.perInstanceMb ?? 0, 'MB');
    result('ccxt_pro_instance_construct_ms', ccxtCost.constructMs ?? 0, 'ms');
    result('ccxt_pro_rss_for_sessions_extrapolated', Math.round(ccxtMb), 'MB');
  } finally {
    sandbox.stdin?.end();
  }
}

export const wsSessionsBenchmark: Benchmark = {
  name: 'ws-sessions',
  description: `${SESSIONS} authenticated Bybit /v5/trade sessions (lean ws client) against the sandbox in another process: RSS, time to warm, one order each; ccxt pro per-instance cost`,
  run,
};
