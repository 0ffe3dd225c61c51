import { describe, expect, it } from 'vitest';
import type { OrderState, PositionState } from '../../server/sandbox/control';
import { Delivery } from './delivery';
import { GRACE_MS, InvariantTracker } from './invariants';
import type { AccountSnapshot, ExecutionSnapshot, Snapshot } from './observe';
import { ActionRunner } from './actions';
import { planOf, SCENARIOS, type ChaosPlan } from './plan';
import { Sampler } from './sampler';
import { lostEntries, mismatches } from './settle';
import { buildWorld, closeWorld } from './world';

/**
 * The invariant checker judged on hand-made snapshots: each invariant is seen when it is broken and
 * not when it holds, so a chaos run that reports zeros has looked.
 */
const T0 = 1_000_000;
const BOUND = 5;

function order(fields: Partial<OrderState>): OrderState {
  return {
    id: fields.id ?? 'o1', clientOrderId: '', symbol: 'BTCUSDT', side: 'sell', type: 'market', kind: 'normal', status: 'new', qty: 0.01, price: 0, filledQty: 0, avgPrice: 0, fee: 0,
    reduceOnly: true, positionIdx: 0, triggerPrice: 0, takeProfit: 0, stopLoss: 0, labels: {}, receivedAt: T0, createdAt: T0, ...fields,
  };
}
const entry = (clientOrderId: string, filledQty = 0.01, id = 'e1') => order({ id, clientOrderId, side: 'buy', reduceOnly: false, status: 'filled', filledQty, createdAt: T0 });
const stop = (clientOrderId: string, qty = 0.01, id = 's1') => order({ id, clientOrderId, kind: 'conditional', status: 'untriggered', qty, triggerPrice: 59000 });
const long = (size: number, stopLoss = 0): PositionState => ({ symbol: 'BTCUSDT', positionIdx: 0, side: 'long', size, entryPrice: 60000, leverage: { long: 10, short: 10 }, realisedPnl: 0, takeProfit: 0, stopLoss, liquidationPrice: 0 });

function account(positions: PositionState[], orders: OrderState[]): AccountSnapshot {
  return { customer: 0, customerId: 7, exchange: 'bybit', uid: 'u7', positions, orders, streamUp: true };
}
function execution(fields: Partial<ExecutionSnapshot>): ExecutionSnapshot {
  return {
    id: 1, orderId: 3, customerId: 7, clientOrderId: 'ct3-7-e', state: 'open', quantity: 0.01, closedQty: 0, entryPrice: 60000, legs: [], claimed: false, updatedAt: T0,
    closeRequested: false, protected: true, side: 'long', symbol: 'BTCUSDT', ...fields,
  };
}

/** Feeds the same state `samples` times, 200 ms apart, from `from` on. */
function watch(tracker: InvariantTracker, state: Omit<Snapshot, 'at'>, samples: number, from = T0): number {
  let at = from;
  for (let i = 0; i < samples; i += 1, at += 200) tracker.observe({ at, ...state });
  return at;
}

const trackerWith = (delivery = new Delivery(), intended = 0.01) => new InvariantTracker({ startedAt: T0, boundSamples: BOUND, clock: delivery, intendedQuantity: () => intended });

describe('invariant checker', () => {
  it('a position without a stop is naked past its grace, and a violation once it stays for the bound', () => {
    const tracker = trackerWith();
    const state = { accounts: [account([long(0.01)], [entry('ct3-7-e')])], executions: [execution({})] };
    watch(tracker, state, GRACE_MS / 200 + BOUND + 1);
    expect(tracker.violations.map((v) => v.invariant)).toEqual(['naked']);
    expect(tracker.nakedMs).toBeGreaterThanOrEqual(BOUND * 200);
  });

  it('a stop covering the size, or a whole-position stop, keeps a position from being naked; a stop smaller than it does not', () => {
    const covered = trackerWith();
    watch(covered, { accounts: [account([long(0.01)], [entry('ct3-7-e'), stop('ct3-7-sl')])], executions: [execution({})] }, 20);
    const whole = trackerWith();
    watch(whole, { accounts: [account([long(0.01, 59000)], [entry('ct3-7-e')])], executions: [execution({})] }, 20);
    const short = trackerWith();
    watch(short, { accounts: [account([long(0.01)], [entry('ct3-7-e'), stop('ct3-7-sl', 0.004)])], executions: [execution({})] }, 20);
    expect([covered.violations.length, whole.violations.length, short.violations.map((v) => v.invariant)]).toEqual([0, 0, ['naked']]);
  });

  it('counts nothing while the account is cut off from the engine, and counts after the outage ends', () => {
    const delivery = new Delivery();
    const outage = delivery.outage(undefined, T0 - 1);
    const tracker = trackerWith(delivery);
    const state = { accounts: [account([long(0.01)], [entry('ct3-7-e')])], executions: [execution({})] };
    const end = watch(tracker, state, 30);
    expect([tracker.nakedMs, tracker.violations.length]).toEqual([0, 0]);
    delivery.endOutage(outage, end);
    watch(tracker, state, GRACE_MS / 200 + BOUND + 1, end);
    expect(tracker.violations.map((v) => v.invariant)).toEqual(['naked']);
  });

  it('an outage after the event stops the count until it ends, and the engine gets its grace again', () => {
    const delivery = new Delivery();
    const tracker = trackerWith(delivery);
    const state = { accounts: [account([long(0.01)], [entry('ct3-7-e')])], executions: [execution({})] };
    let at = watch(tracker, state, GRACE_MS / 200 + 3);
    expect(tracker.nakedMs).toBeGreaterThan(0);
    const outage = delivery.outage(undefined, at);
    const before = tracker.nakedMs;
    at = watch(tracker, state, 40, at);
    expect([tracker.nakedMs, tracker.violations.length]).toEqual([before, 0]);
    delivery.endOutage(outage, at);
    at = watch(tracker, state, GRACE_MS / 200, at);
    expect([tracker.nakedMs, tracker.violations.length]).toEqual([before, 0]);
    watch(tracker, state, BOUND + 1, at);
    expect(tracker.violations.map((v) => v.invariant)).toEqual(['naked']);
  });

  it('a live leg of an execution closed in the database, or whose position is flat on the exchange, is an orphan', () => {
    const closed = trackerWith();
    watch(closed, { accounts: [account([], [entry('ct3-7-e'), stop('ct3-7-sl')])], executions: [execution({ state: 'closed' })] }, 15);
    const flat = trackerWith();
    watch(flat, { accounts: [account([], [entry('ct3-7-e'), stop('ct3-7-tp1')])], executions: [execution({})] }, 15);
    const alive = trackerWith();
    watch(alive, { accounts: [account([long(0.01)], [entry('ct3-7-e'), stop('ct3-7-sl')])], executions: [execution({})] }, 15);
    expect([closed.violations.map((v) => v.invariant), flat.violations.map((v) => v.invariant), alive.violations]).toEqual([['orphan'], ['orphan'], []]);
  });

  it('two entry orders for one execution, an entry nobody owns and an entry filled beyond its size are doubled', () => {
    const two = trackerWith();
    two.observe({ at: T0, accounts: [account([long(0.02)], [entry('ct3-7-e'), entry('ct3-7-e2', 0.01, 'e2'), stop('ct3-7-sl', 0.02)])], executions: [execution({})] });
    const unowned = trackerWith();
    unowned.observe({ at: T0, accounts: [account([long(0.01)], [entry('somebody', 0.01), stop('ct3-7-sl')])], executions: [execution({})] });
    const over = trackerWith(new Delivery(), 0.005);
    over.observe({ at: T0, accounts: [account([long(0.01)], [entry('ct3-7-e'), stop('ct3-7-sl')])], executions: [execution({})] });
    expect([two, unowned, over].map((t) => t.violations.map((v) => `${v.invariant}: ${v.what}`))).toEqual([
      ['doubled: 2 entry orders for one execution: ct3-7-e 0.01/0.01, ct3-7-e2 0.01/0.01'],
      ['doubled: an entry order no execution owns: somebody buy 0.01/0.01'],
      ['doubled: entry ct3-7-e filled 0.01, more than the 0.005 asked'],
    ]);
  });

  it('at settle: an eligible customer without position or audit is lost; sizes that differ are mismatches', () => {
    const snapshot: Snapshot = { at: T0, accounts: [account([long(0.006)], [])], executions: [execution({ state: 'open', closedQty: 0 })] };
    const alerts = [{ strategy: 0, orderId: 3, at: T0, eligible: [7] }, { strategy: 0, orderId: 4, at: T0, eligible: [7] }];
    expect(lostEntries(snapshot, alerts, [], 0).map((v) => v.what)).toEqual(['order 4: no execution and no entry audit']);
    expect(lostEntries(snapshot, alerts, [{ orderId: 4, customerId: 7 }], 0)).toEqual([]);
    expect(mismatches(snapshot, 0).map((v) => v.what)).toEqual(['BTCUSDT long: database holds 0.01, the exchange 0.006']);
    expect(mismatches({ ...snapshot, accounts: [account([long(0.01)], [])] }, 0)).toEqual([]);
  });

  it('a seed always draws the same plan, and only from the scenarios asked for', () => {
    expect(JSON.stringify(planOf(17))).toBe(JSON.stringify(planOf(17)));
    expect(JSON.stringify(planOf(17))).not.toBe(JSON.stringify(planOf(18)));
    const picked = new Set(Array.from({ length: 40 }, (_, i) => planOf(i, ['manual', 'kill']).episodes.map((e) => e.scenario)).flat());
    expect([...picked].sort()).toEqual(['kill', 'manual']);
    expect(new Set(Array.from({ length: 200 }, (_, i) => planOf(i).episodes.map((e) => e.scenario)).flat()).size).toBe(SCENARIOS.length);
  });
});

describe('invariant checker on the real sandbox and database', () => {
  it('sees no naked position while the engine protects them, and every one once their stops are cancelled with the engine stopped', async () => {
    const base = planOf(1);
    const plan: ChaosPlan = { ...base, engine: 'in-process', positionMode: 'oneway', customers: [{ exchange: 'bybit', group: 'gold' }, { exchange: 'bitget', group: 'gold' }], strategies: [base.strategies[0]!], episodes: [] };
    const world = await buildWorld(plan);
    const tracker = new InvariantTracker({ startedAt: world.startedAt, boundSamples: BOUND, clock: world.delivery, intendedQuantity: () => plan.strategies[0]!.quantity });
    const sampler = new Sampler(world, tracker);
    const actions = new ActionRunner(world);
    sampler.start();
    try {
      await actions.run({ do: 'alert', strategy: 0, action: 'open' });
      await actions.run({ do: 'wait-until', until: 'positions-open', strategy: 0, timeoutMs: 30_000 });
      for (let i = 0; i < BOUND + 10; i += 1) await sampler.next();
      expect(tracker.violations).toEqual([]);
      await world.engine.stop();
      for (const customer of [0, 1]) await actions.run({ do: 'cancel-stop', customer });
      const seen = () => tracker.violations.map((v) => `${v.invariant} #${v.customer}`).sort();
      for (let i = 0; i < 200 && seen().length < 2; i += 1) await sampler.next();
      expect(seen()).toEqual(['naked #0', 'naked #1']);
    } finally {
      await sampler.stop();
      await closeWorld(world);
    }
  }, 120_000);
});
