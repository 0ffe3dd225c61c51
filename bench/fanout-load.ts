import { spreadOf, type Spread } from './fanout-protection';

export interface LoadResult {
  alerts: number;
  answers: Spread;
  errors: number;
}

/**
 * Open-loop webhook load: `rate` alerts a second for `seconds`, round-robin over the tokens, each
 * sent on schedule whether or not earlier ones were answered (a slow server cannot slow the load down).
 */
export async function webhookLoad(baseUrl: string, tokens: string[], rate: number, seconds: number, label: string): Promise<LoadResult> {
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i += 1) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const t = performance.now();
    sends.push(
      fetch(`${baseUrl}/api/webhook/${tokens[i % tokens.length]!}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'open', alert_id: `${label}${i}` }) })
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
  return { alerts: total, answers: spreadOf(latencies), errors };
}

/**
 * The same load from a child process, so the load generator does not share the server's event loop
 * (and core): the answers measure the server. The child first sends the same load for `warmSeconds`
 * unmeasured (alert ids of their own), so the figures are the steady state, not the cold start of a
 * fresh load generator and of the server's database connections.
 */
export async function webhookLoadElsewhere(baseUrl: string, tokens: string[], rate: number, seconds: number, label: string, warmSeconds: number): Promise<LoadResult> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./fanout-load-child.ts', import.meta.url).pathname], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify({ baseUrl, tokens, rate, seconds, label, warmSeconds }));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the load generator exited with ${code}`);
  return JSON.parse(output) as LoadResult;
}
