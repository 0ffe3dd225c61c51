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
