import http from 'node:http';

export interface LoadTarget {
  /** Short, stable name of the figure (the BENCH_RESULT line's `name`). */
  name: string;
  label: string;
  method: 'GET' | 'POST';
  /** The path, or the path of the i-th request (a query string that rotates too). */
  path: string | ((i: number) => string);
  headers?: Record<string, string>;
  /** Body of the i-th request (JSON), so a run can rotate through many filters. */
  body?: (i: number) => unknown;
  /** Work running beside the load while it is measured (e.g. writes); the returned function stops it. */
  during?: () => () => Promise<void>;
}

export interface LoadResult {
  name: string;
  label: string;
  requests: number;
  errors: number;
  seconds: number;
  throughput: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const pathOf = (target: LoadTarget, i: number) => (typeof target.path === 'string' ? target.path : target.path(i));

function once(agent: http.Agent, base: URL, target: LoadTarget, i: number): Promise<boolean> {
  const payload = target.body ? JSON.stringify(target.body(i)) : undefined;
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: target.method,
        path: pathOf(target, i),
        headers: { ...target.headers, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode === 200));
        response.on('error', () => resolve(false));
      },
    );
    request.on('error', () => resolve(false));
    request.end(payload);
  });
}

/**
 * A closed-loop load over real HTTP: `concurrency` workers on keep-alive connections, each sending
 * its next request as soon as the previous answer arrived, for `seconds`.
 */
export async function runLoad(baseUrl: string, target: LoadTarget, options: { concurrency: number; seconds: number }): Promise<LoadResult> {
  const base = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const ok = await once(agent, base, target, counter++);
      latencies.push(performance.now() - t0);
      if (!ok) errors += 1;
    }
  };
  const stopBeside = target.during?.();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await stopBeside?.();
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    name: target.name,
    label: target.label,
    requests: latencies.length,
    errors,
    seconds,
    throughput: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

const ms = (value: number) => Math.round(value * 100) / 100;

/**
 * The table, then one `BENCH_RESULT {json}` line per target, each with the empty route's req/s of
 * the same run. A target with failed requests fails the benchmark: its figures would measure errors.
 */
export function printResults(results: LoadResult[], concurrency: number, emptyName: string): void {
  const empty = results.find((r) => r.name === emptyName);
  if (!empty) throw new Error(`no result for the empty route ${emptyName}`);
  console.table(
    results.map((r) => ({
      target: r.label,
      concurrency,
      requests: r.requests,
      errors: r.errors,
      'req/s': r.throughput.toFixed(0),
      '% of empty': `${((100 * r.throughput) / empty.throughput).toFixed(0)}%`,
      'p50 ms': r.p50.toFixed(2),
      'p99 ms': r.p99.toFixed(2),
    })),
  );
  for (const r of results) {
    console.log(`BENCH_RESULT ${JSON.stringify({ name: r.name, rps: Math.round(r.throughput), p50: ms(r.p50), p99: ms(r.p99), emptyRps: Math.round(empty.throughput) })}`);
  }
  const failed = results.filter((r) => r.errors > 0);
  if (failed.length) throw new Error(`requests failed: ${failed.map((r) => `${r.name} ${r.errors}`).join(', ')}`);
}

interface AnswerShape {
  successful?: boolean;
  data?: { data?: unknown[]; paging?: { totalCount: number } } | null;
}

/**
 * Sends every target's first request once: it must answer 200 with `successful`, and a paged
 * answer must hold rows (a benchmark of errors or of empty pages measures nothing).
 */
export async function checkTargets(baseUrl: string, targets: LoadTarget[]): Promise<void> {
  for (const target of targets) {
    const response = await fetch(new URL(pathOf(target, 0), baseUrl), {
      method: target.method,
      headers: { ...target.headers, ...(target.body ? { 'content-type': 'application/json' } : {}) },
      ...(target.body ? { body: JSON.stringify(target.body(0)) } : {}),
    });
    const answer = (await response.json()) as AnswerShape;
    const rows = answer.data?.paging ? (answer.data.data?.length ?? 0) : undefined;
    if (response.status !== 200 || answer.successful !== true || rows === 0) {
      throw new Error(`${target.name}: status ${response.status}, ${rows ?? 'no'} rows: ${JSON.stringify(answer).slice(0, 300)}`);
    }
  }
}

/**
 * Every target for one second to warm up, then each for `seconds`, one after the other; the
 * targets named in BENCH_ONLY (comma-separated) alone when it is set, the empty route always.
 */
export async function measureTargets(baseUrl: string, targets: LoadTarget[], options: { concurrency: number; seconds: number; emptyName: string }): Promise<LoadResult[]> {
  const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
  const chosen = only ? targets.filter((t) => t.name === options.emptyName || only.includes(t.name)) : targets;
  for (const target of chosen) await runLoad(baseUrl, target, { concurrency: options.concurrency, seconds: 1 });
  const results: LoadResult[] = [];
  for (const target of chosen) results.push(await runLoad(baseUrl, target, options));
  return results;
}

/** Checks every target, measures each next to the empty route in one run, and prints the table and BENCH_RESULT lines. */
export async function measureAndPrint(baseUrl: string, targets: LoadTarget[], options: { concurrency: number; seconds: number; poolSize: number | undefined }): Promise<void> {
  await checkTargets(baseUrl, targets);
  const results = await measureTargets(baseUrl, targets, { concurrency: options.concurrency, seconds: options.seconds, emptyName: 'empty' });
  console.log(`${options.concurrency} concurrent requests, ${options.seconds} s per target, database pool of ${options.poolSize}`);
  printResults(results, options.concurrency, 'empty');
}
