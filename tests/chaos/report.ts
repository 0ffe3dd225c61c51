import { failed, type SeedResult } from './run-seed';

/** The figures of a chaos run, as the CHAOS_RESULT line prints them. */
export interface ChaosTotals {
  seeds: number;
  scenarios: number;
  nakedPositionSeconds: number;
  orphanLegSeconds: number;
  lost: number;
  doubled: number;
  mismatchesAfterSettle: number;
}

export function totals(results: readonly SeedResult[]): ChaosTotals {
  const sum = (pick: (r: SeedResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  return {
    seeds: results.length,
    scenarios: sum((r) => r.scenarios.length),
    nakedPositionSeconds: Number(sum((r) => r.nakedPositionSeconds).toFixed(2)),
    orphanLegSeconds: Number(sum((r) => r.orphanLegSeconds).toFixed(2)),
    lost: sum((r) => r.lost),
    doubled: sum((r) => r.doubled),
    mismatchesAfterSettle: sum((r) => r.mismatchesAfterSettle),
  };
}

export const resultLine = (results: readonly SeedResult[]) => `CHAOS_RESULT ${JSON.stringify(totals(results))}`;

export const replayCommand = (seed: number) => `npm run chaos -- --seed ${seed}`;

/** One line per seed: its scenarios, figures and time. */
export function seedLine(result: SeedResult): string {
  const verdict = failed(result) ? 'FAIL' : 'ok';
  return `chaos seed ${result.seed} ${verdict} [${result.scenarios.join(', ')}] naked ${result.nakedPositionSeconds}s orphan ${result.orphanLegSeconds}s lost ${result.lost} doubled ${result.doubled} mismatches ${result.mismatchesAfterSettle}${result.settled ? '' : ' (did not settle)'} in ${result.durationS}s`;
}

/** What failed in a seed, with the state the checker saw, the plan, what the harness did, and the command that replays it. */
export function failureReport(result: SeedResult): string {
  if (!failed(result)) return '';
  const violations = result.violations.map((v) => `  - ${v.invariant} customer #${v.customer} at ${v.atS}s: ${v.what}\n      ${v.state ?? ''}`).join('\n');
  const errors = result.engineErrors ? `\n engine log (warnings and errors, latest last):\n${result.engineErrors.slice(-4000)}` : '';
  const audits = result.exitAudits.length > 0 ? `\n exit audits of those customers:\n   ${result.exitAudits.join('\n   ')}` : '';
  return [`seed ${result.seed} failed:`, violations, ` plan: ${result.plan}`, ` run:\n   ${result.log.join('\n   ')}${audits}`, `${errors}`, ` replay: ${replayCommand(result.seed)}`].join('\n');
}
