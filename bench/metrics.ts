import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app';
import { createDeps } from '../server/bootstrap';
import { createLogger } from '../server/logger';
import { PAUSE_SKIP_MESSAGES } from '../server/trading/pauses';
import { loadActivityFixture } from './fixtures/activity';
import { loadCustomerFixture } from './fixtures/customers';
import { benchConfig, openBenchDatabase } from './harness';
import type { Benchmark } from './benchmark';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 5_000);
const EXECUTIONS = Number(process.env.BENCH_EXECUTIONS ?? 1_000_000);
const RECENT_SKIPS = 5_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const GOAL_MS = 20;
const TOKEN = 'bench-metrics-token';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * GET /metrics, one request at a time, over 5,000 customers, 1,000,000 executions (the live ones of the
 * fixture's active orders included), 200,000 older audit rows and 5,000 entry skips of the last minutes.
 */
async function run(): Promise<void> {
  const database = await openBenchDatabase('bench_metrics');
  try {
    const t0 = performance.now();
    await loadCustomerFixture(database.handle.db, { customers: CUSTOMERS, agents: 50 });
    const fixture = await loadActivityFixture(database.handle.db, { executionsPerOrder: 50, executions: EXECUTIONS, entryAudits: 100_000, exitAudits: 100_000 });
    await database.handle.db.execute(sql`
      insert into entry_audits (order_id, customer_id, strategy_id, entry_type, message, datetime_inserted)
      select null, null, null, 2, ${PAUSE_SKIP_MESSAGES.customer}, now() - make_interval(secs => g % 600) from generate_series(1, ${RECENT_SKIPS}::int) g`);
    await database.handle.db.execute(sql`vacuum analyze entry_audits`);
    const live = await database.handle.db.execute<{ n: number }>(sql`select count(*)::int as n from executions where state in ('pending', 'open')`);
    console.log(`fixture: ${CUSTOMERS} customers, ${fixture.executions} executions (${live.rows[0]!.n} live), ${RECENT_SKIPS} recent skips in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const deps = createDeps({ ...benchConfig(database), metricsToken: TOKEN }, database.handle, createLogger('silent'));
    const app = await buildApp(deps);
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const get = async () => {
        const started = performance.now();
        const answer = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
        const text = await answer.text();
        if (answer.status !== 200) throw new Error(`GET /metrics answered ${answer.status}: ${text}`);
        return { ms: performance.now() - started, text };
      };
      for (let i = 0; i < 20; i += 1) await get();
      const times: number[] = [];
      let last = '';
      for (let i = 0; i < REQUESTS; i += 1) {
        const { ms, text } = await get();
        times.push(ms);
        last = text;
      }
      times.sort((a, b) => a - b);
      const [p50, p95, p99, max] = [percentile(times, 50), percentile(times, 95), percentile(times, 99), times.at(-1)!];
      console.log(`GET /metrics, ${REQUESTS} sequential requests: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms (goal < ${GOAL_MS} ms)`);
      console.log(last.split('\n').filter((line) => /^copytrade_(executions|execution_queue_depth|entry_skips_recent)/.test(line)).join('\n'));
      console.log(`BENCH_RESULT ${JSON.stringify({ name: 'metrics', customers: CUSTOMERS, executions: fixture.executions, p50Ms: +p50.toFixed(2), p95Ms: +p95.toFixed(2), p99Ms: +p99.toFixed(2), goalMs: GOAL_MS })}`);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

export const metricsBenchmark: Benchmark = {
  name: 'metrics',
  description: 'GET /metrics one request at a time over 5,000 customers and 1,000,000 executions (goal: under 20 ms)',
  run,
};
