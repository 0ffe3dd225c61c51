import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseScenarios, parseSeeds } from './options';
import { failureReport, replayCommand, resultLine } from './report';
import { failed, type SeedResult } from './run-seed';

/**
 * `npm run chaos -- --seeds N [--from F] [--seed S[,S...]] [--scenarios a,b]`: runs the chaos test file
 * (`chaos.test.ts`, under vitest for its PostgreSQL) on those seeds, then prints each failing seed with
 * what failed and how to replay it, and the CHAOS_RESULT line. Exit code 1 when a seed failed.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const usage = 'usage: npm run chaos -- --seeds N [--from F] | --seed S[,S...] [--scenarios name,name]';

function parseArgs(argv: string[]): { seeds: number[]; scenarios: string | undefined } {
  const value = (flag: string) => {
    const index = argv.indexOf(flag);
    if (index < 0) return undefined;
    const next = argv[index + 1];
    if (next === undefined || next.startsWith('--')) throw new Error(`${flag} needs a value`);
    return next;
  };
  const known = new Set(['--seeds', '--from', '--seed', '--scenarios']);
  const unknown = argv.filter((arg) => arg.startsWith('--') && !known.has(arg));
  if (unknown.length > 0) throw new Error(`unknown option(s) ${unknown.join(' ')}`);
  const scenarios = value('--scenarios');
  parseScenarios(scenarios);
  const explicit = argv.flatMap((arg, i) => (arg === '--seed' ? [argv[i + 1] ?? ''] : [])).join(',');
  if (explicit) return { seeds: parseSeeds(explicit), scenarios };
  const count = Number(value('--seeds'));
  const from = Number(value('--from') ?? 1);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(from) || from < 0) throw new Error('--seeds needs a whole number of seeds (and --from a first seed)');
  return { seeds: Array.from({ length: count }, (_, i) => from + i), scenarios };
}

function runVitest(env: NodeJS.ProcessEnv, many: boolean): Promise<number> {
  const args = ['vitest', 'run', '--project', 'server', 'tests/chaos/chaos.test.ts', ...(many ? ['--reporter=dot'] : [])];
  return new Promise((resolve) => {
    const child = spawn('npx', args, { cwd: root, stdio: 'inherit', env });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<number> {
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'chaos-'));
  const report = path.join(dir, 'report.json');
  const started = Date.now();
  const env = { ...process.env, CHAOS_SEEDS: options.seeds.join(','), CHAOS_REPORT: report, ...(options.scenarios ? { CHAOS_SCENARIOS: options.scenarios } : {}) };
  const code = await runVitest(env, options.seeds.length > 10);
  let results: SeedResult[] = [];
  try {
    results = (JSON.parse(readFileSync(report, 'utf8')) as { results: SeedResult[] }).results;
  } catch {
    console.error('the chaos run wrote no report');
  }
  rmSync(dir, { recursive: true, force: true });
  const crashed = options.seeds.filter((seed) => !results.some((r) => r.seed === seed));
  console.log('');
  for (const result of results.filter(failed)) console.log(`${failureReport(result)}\n`);
  for (const seed of crashed) console.log(`seed ${seed} did not finish (see the vitest output above); replay: ${replayCommand(seed)}`);
  console.log(`chaos: ${results.length} seeds in ${Math.round((Date.now() - started) / 1000)} s, ${results.filter(failed).length + crashed.length} failing`);
  console.log(resultLine(results));
  return results.some(failed) || crashed.length > 0 || code !== 0 ? 1 : 0;
}

process.exit(await main());
