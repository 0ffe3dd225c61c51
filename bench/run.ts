import { activitySearchBenchmark } from './activity-search';
import { closeAllBenchmark } from './close-all';
import { customerFilterBenchmark } from './customer-filter';
import { exportsBenchmark } from './exports';
import { fanoutBenchmark } from './fanout';
import { metricsBenchmark } from './metrics';
import { wsSessionsBenchmark } from './ws-sessions';
import type { Benchmark } from './benchmark';

/** Every benchmark; add new ones here. `npm run bench` runs them all, `npm run bench -- a b` only those. */
const registry: Benchmark[] = [customerFilterBenchmark, activitySearchBenchmark, exportsBenchmark, fanoutBenchmark, wsSessionsBenchmark, metricsBenchmark, closeAllBenchmark];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !registry.some((b) => b.name === name));
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${registry.map((b) => b.name).join(', ')}`);
  process.exit(2);
}
for (const benchmark of registry.filter((b) => wanted.length === 0 || wanted.includes(b.name))) {
  console.log(`\n# ${benchmark.name}: ${benchmark.description}`);
  await benchmark.run();
}
// Each benchmark closed its servers, databases and sandbox; an engine's work left queued behind the rate
// limits (a dispatcher given 2 s to stop) must not keep the command running after its figures.
process.exit(process.exitCode ?? 0);
