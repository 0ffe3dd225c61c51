import { ActionRunner } from './actions';
import { InvariantTracker, type Violation } from './invariants';
import { readEntryAudits, readExitAudits, type Snapshot } from './observe';
import { describePlan, planOf, SCENARIOS, type ScenarioName, type Step } from './plan';
import { Sampler } from './sampler';
import { engineQuiet, fingerprint, lostEntries, mismatches } from './settle';
import { buildWorld, closeWorld, deadEgressPartsLapseAt, ENGINE_SETTINGS, type ChaosWorld } from './world';

/**
 * A naked position or an orphan leg is a violation once it has counted for this many samples in a row
 * (about 5 s of wall clock on an idle machine, longer on a loaded one: each sample waits for the database).
 */
export const BOUND_SAMPLES = 30;
/** The engine's time to settle: two of its sync periods and some, after the last fault is lifted. */
const SETTLE_MAX_MS = 2 * ENGINE_SETTINGS.syncIntervalMs + 30_000;

export interface SeedResult {
  seed: number;
  scenarios: ScenarioName[];
  nakedPositionSeconds: number;
  orphanLegSeconds: number;
  lost: number;
  doubled: number;
  mismatchesAfterSettle: number;
  /** Every violation, naked and orphan ones included (those make the seed fail, whatever the seconds). */
  violations: Violation[];
  settled: boolean;
  durationS: number;
  plan: string;
  log: string[];
  engineErrors: string;
  /** The exit audits of the customers a violation names (the engine's own account of what happened to them). */
  exitAudits: string[];
}

export const failed = (result: SeedResult) => result.violations.length > 0;

/** Lifts every fault, brings liquidity back and a killed worker up, then waits until the engine is quiet and the state stable. */
async function settle(world: ChaosWorld, actions: ActionRunner, sampler: Sampler): Promise<{ snapshot: Snapshot; settled: boolean }> {
  const lift: Step[] = [
    { do: 'faults', rules: [] },
    { do: 'stream-faults', rules: [] },
    { do: 'latency', ms: 0 },
    { do: 'clock', offsetMs: 0 },
    { do: 'book', shape: 'normal' },
    ...world.customers.map((_, customer): Step => ({ do: 'margin-short', customer, short: false })),
  ];
  for (const step of lift) await actions.run(step);
  world.sandbox.control.clearStreamFaults();
  if (!world.engine.running()) await actions.run({ do: 'restart-worker' });
  const liftedAt = Date.now();
  // A killed worker's part of an exchange's window stays counted until it lapses (by design): the engine
  // may not act on that exchange before, so the settle's time counts from then.
  const lapseAt = await deadEgressPartsLapseAt(world);
  const deadline = Math.max(liftedAt, lapseAt) + SETTLE_MAX_MS;
  world.note(`settling${lapseAt > liftedAt ? ` (a killed worker's egress part lapses in ${((lapseAt - liftedAt) / 1000).toFixed(1)} s)` : ''}`);
  let previous: string | undefined;
  let snapshot = await sampler.next();
  while (Date.now() < deadline) {
    const quiet = engineQuiet(snapshot, liftedAt);
    const print = fingerprint(snapshot);
    if (quiet && print === previous) return { snapshot, settled: true };
    previous = quiet ? print : undefined;
    await new Promise((resolve) => setTimeout(resolve, 500));
    snapshot = await sampler.next();
  }
  world.note(`not quiet ${SETTLE_MAX_MS} ms after the faults were lifted (and dead workers' egress parts lapsed): checked as it is`);
  return { snapshot, settled: false };
}

async function play(world: ChaosWorld, actions: ActionRunner): Promise<void> {
  for (const [index, episode] of world.plan.episodes.entries()) {
    world.note(`episode ${index + 1}: ${episode.scenario}`);
    for (const step of episode.steps) await actions.run(step);
  }
}

/** Runs one seed's plan against a fresh sandbox, database and engine, and judges it. */
export async function runSeed(seed: number, allowed: readonly ScenarioName[] = SCENARIOS): Promise<SeedResult> {
  const started = Date.now();
  const plan = planOf(seed, allowed);
  const world = await buildWorld(plan);
  const quantities = new Map<number, number>();
  const tracker = new InvariantTracker({
    startedAt: world.startedAt,
    boundSamples: BOUND_SAMPLES,
    clock: world.delivery,
    intendedQuantity: (orderId) => {
      if (!quantities.has(orderId)) {
        const alert = world.alerts.find((a) => a.orderId === orderId);
        if (alert) quantities.set(orderId, world.strategies[alert.strategy]!.plan.quantity);
      }
      return quantities.get(orderId);
    },
  });
  const sampler = new Sampler(world, tracker);
  const actions = new ActionRunner(world);
  sampler.start();
  let settled = false;
  let exitAudits: string[] = [];
  try {
    await play(world, actions);
    const end = await settle(world, actions, sampler);
    settled = end.settled;
    const atS = tracker.secondsAt(end.snapshot.at);
    tracker.flagRemaining(end.snapshot);
    tracker.violations.push(...lostEntries(end.snapshot, world.alerts, await readEntryAudits(world.ctx.deps.db), atS), ...mismatches(end.snapshot, atS));
    const named = [...new Set(tracker.violations.map((v) => world.customers[v.customer]!.customerId))];
    exitAudits = await readExitAudits(world.ctx.deps.db, named, world.startedAt);
  } finally {
    await sampler.stop();
    await closeWorld(world);
  }
  const count = (name: Violation['invariant']) => tracker.violations.filter((v) => v.invariant === name).length;
  return {
    seed,
    scenarios: plan.episodes.map((e) => e.scenario),
    nakedPositionSeconds: Number((tracker.nakedMs / 1000).toFixed(2)),
    orphanLegSeconds: Number((tracker.orphanMs / 1000).toFixed(2)),
    lost: count('lost'),
    doubled: count('doubled'),
    mismatchesAfterSettle: count('mismatch'),
    violations: tracker.violations,
    settled,
    durationS: Number(((Date.now() - started) / 1000).toFixed(1)),
    plan: describePlan(plan),
    log: world.log,
    engineErrors: world.engine.errors(),
    exitAudits,
  };
}
