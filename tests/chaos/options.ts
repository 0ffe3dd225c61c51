import { SCENARIOS, type ScenarioName } from './plan';

/**
 * Which seeds and scenario families a chaos run covers. `npm run chaos` passes them to the vitest file
 * through the environment (CHAOS_SEEDS, CHAOS_SCENARIOS); without them `npm test` runs FIXED_SEEDS.
 */
export interface ChaosOptions {
  seeds: number[];
  scenarios: ScenarioName[];
}

/** The seeds `npm test` runs: together they cover every scenario family (see README.md). */
export const FIXED_SEEDS = [48, 39, 45, 26, 4, 2];

export function parseScenarios(text: string | undefined): ScenarioName[] {
  if (!text) return [...SCENARIOS];
  const names = text.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`Unknown scenario(s): ${unknown.join(', ')}. Known: ${SCENARIOS.join(', ')}`);
  return names as ScenarioName[];
}

/** "1,5,9" or "1-50" (or both, comma-separated). */
export function parseSeeds(text: string): number[] {
  const seeds: number[] = [];
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const range = /^(\d+)-(\d+)$/.exec(part);
    if (range) for (let seed = Number(range[1]); seed <= Number(range[2]); seed += 1) seeds.push(seed);
    else if (/^\d+$/.test(part)) seeds.push(Number(part));
    else throw new Error(`Not a seed or a range of seeds: '${part}'`);
  }
  return seeds;
}

export function optionsFromEnv(env: NodeJS.ProcessEnv): ChaosOptions {
  return { seeds: env.CHAOS_SEEDS ? parseSeeds(env.CHAOS_SEEDS) : FIXED_SEEDS, scenarios: parseScenarios(env.CHAOS_SCENARIOS) };
}
