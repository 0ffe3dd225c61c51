import http from 'node:http';

export interface LoadTarget {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** Body of the i-th request (JSON), so a run can rotate through many filters. */
  body?: (i: number) => unknown;
}

export interface LoadResult {
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

function once(agent: http.Agent, base: URL, target: LoadTarget, i: number): Promise<boolean> {
  const payload = target.body ? JSON.stringify(target.body(i)) : undefined;
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: target.method,
        path: target.path,
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
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    label: target.label,
    requests: latencies.length,
    errors,
    seconds,
    throughput: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

export function printResults(results: LoadResult[], concurrency: number): void {
  const rows = results.map((r) => ({
    target: r.label,
    concurrency,
    requests: r.requests,
    errors: r.errors,
    'req/s': r.throughput.toFixed(0),
    'p50 ms': r.p50.toFixed(2),
    'p99 ms': r.p99.toFixed(2),
  }));
  console.table(rows);
}
