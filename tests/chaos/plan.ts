import { Random } from '../../server/sandbox/random';

/**
 * A chaos run's plan: everything one seed decides (customers, strategies, and the episodes of
 * actions), drawn before anything runs, so `npm run chaos -- --seed S` replays the same plan exactly.
 * What the engine does in between (and how fast) is not in the plan: the invariants must hold whatever
 * the interleaving.
 */
export type ExchangeName = 'bybit' | 'bitget';

/** The scenario families (`--scenarios` picks among them); each seed runs a few episodes drawn from them. */
export const SCENARIOS = [
  'thin-close',
  'partial-entry',
  'refusals',
  'streams',
  'latency',
  'kill',
  'manual',
  'stops',
  'liquidation',
  'staff-during-entry',
  'alert-during-close',
  'two-strategies',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface CustomerPlan {
  exchange: ExchangeName;
  /** 'gold' customers follow every strategy; 'vip' customers only strategy B (when there is one). */
  group: 'gold' | 'vip';
}

export interface StrategyPlan {
  /** 'A' or 'B'. */
  name: string;
  side: 'long' | 'short';
  /** Base quantity each customer trades (BTC). */
  quantity: number;
  /** Take-profit legs: target (% from the fill) and volume (% of the position). */
  tp: Array<{ target: number; volume: number }>;
  stopPercent: number;
  advanceStopLoss: boolean;
  trailing: boolean;
  groups: Array<'gold' | 'vip'>;
}

export type BookShape = 'normal' | 'thin' | 'empty';

/** One fault rule, its account named by customer index (resolved to the sandbox uid when run). */
export interface PlannedFault {
  customer?: number;
  exchange?: ExchangeName;
  route?: string;
  latencyMs?: { min: number; max: number };
  errorShare?: number;
  rateLimitShare?: number;
  reject?: { share?: number; code: string; msg: string };
  /** The order is placed and answered, but order queries miss it this long (D6). */
  hideOrderMs?: number;
  /** Applied, answered this late (the client may give up first). */
  timeoutShare?: number;
  timeoutMs?: number;
  remaining?: number;
}

export interface PlannedStreamFault {
  customer?: number;
  exchange?: ExchangeName;
  delayMs?: { min: number; max: number };
  duplicateShare?: number;
  stall?: boolean;
}

export type Step =
  | { do: 'alert'; strategy: number; action: 'open' | 'close' }
  | { do: 'staff-close'; strategy: number }
  | { do: 'book'; shape: BookShape; thinShare?: number }
  | { do: 'faults'; rules: PlannedFault[] }
  | { do: 'stream-faults'; rules: PlannedStreamFault[] }
  | { do: 'drop-streams'; customer?: number; exchange?: ExchangeName; refuseMs: number }
  | { do: 'latency'; ms: number }
  | { do: 'clock'; offsetMs: number }
  | { do: 'margin-short'; customer: number; short: boolean }
  | { do: 'price'; move: number }
  | { do: 'manual-close'; customer: number; share: number }
  | { do: 'cancel-stop'; customer: number }
  | { do: 'liquidate'; customer: number }
  | { do: 'drop-trade-sockets' }
  | { do: 'kill-worker' }
  | { do: 'restart-worker' }
  | { do: 'wait'; ms: number }
  | { do: 'wait-until'; until: 'entries-done' | 'positions-open' | 'closing'; strategy: number; timeoutMs: number };

export interface Episode {
  scenario: ScenarioName;
  steps: Step[];
}

export interface ChaosPlan {
  seed: number;
  symbol: 'BTCUSDT';
  startPrice: number;
  positionMode: 'oneway' | 'hedge';
  /** The engine runs in this test process, or in `server/worker.ts` child processes (kill -9 and restart). */
  engine: 'in-process' | 'worker';
  customers: CustomerPlan[];
  strategies: StrategyPlan[];
  episodes: Episode[];
}

const round3 = (value: number) => Number(value.toFixed(3));

/** The seeded draws of one plan. */
class Draw {
  private readonly random: Random;
  constructor(seed: number) {
    // A fixed offset keeps seed 0 and small seeds away from the PRNG's weakest states.
    this.random = new Random((seed * 2654435761 + 0x9e3779b9) >>> 0);
  }
  next = () => this.random.next();
  chance = (p: number) => this.random.next() < p;
  int = (min: number, max: number) => min + Math.floor(this.random.next() * (max - min + 1));
  pick = <T>(items: readonly T[]): T => items[Math.floor(this.random.next() * items.length)]!;
  ms = (min: number, max: number) => Math.round(this.random.uniform(min, max) / 50) * 50;
}

function customersOf(d: Draw): CustomerPlan[] {
  const count = d.int(3, 5);
  const list: CustomerPlan[] = [
    { exchange: 'bybit', group: 'gold' },
    { exchange: 'bitget', group: 'gold' },
  ];
  while (list.length < count) list.push({ exchange: d.pick(['bybit', 'bitget'] as const), group: d.chance(0.25) ? 'vip' : 'gold' });
  return list;
}

function strategyOf(d: Draw, name: string, side: 'long' | 'short', groups: Array<'gold' | 'vip'>): StrategyPlan {
  const ladder = d.chance(0.5);
  const tp = ladder
    ? [
        { target: round3(d.int(8, 15) / 10), volume: 40 },
        { target: round3(d.int(20, 30) / 10), volume: 30 },
        { target: round3(d.int(35, 50) / 10), volume: 30 },
      ]
    : [{ target: round3(d.int(15, 40) / 10), volume: 100 }];
  return {
    name,
    side,
    quantity: d.int(4, 16) / 1000,
    tp,
    stopPercent: round3(d.int(8, 20) / 10),
    advanceStopLoss: ladder && d.chance(0.5),
    trailing: d.chance(0.15),
    groups,
  };
}

function strategiesOf(d: Draw, families: readonly ScenarioName[]): StrategyPlan[] {
  const side = d.chance(0.75) ? 'long' : 'short';
  const a = strategyOf(d, 'A', side, ['gold']);
  const wantsTwo = families.includes('two-strategies') || d.chance(0.4);
  if (!wantsTwo) return [a];
  // Mostly the same side (one shared position per account); sometimes the other (skipped in one-way mode, apart in hedge mode).
  const otherSide = d.chance(0.8) ? side : side === 'long' ? 'short' : 'long';
  return [a, strategyOf(d, 'B', otherSide, ['gold', 'vip'])];
}

type EpisodeContext = { d: Draw; customers: CustomerPlan[]; strategies: StrategyPlan[]; engine: ChaosPlan['engine'] };

const anyCustomer = (c: EpisodeContext) => c.d.int(0, c.customers.length - 1);
const anyStrategy = (c: EpisodeContext) => c.d.int(0, c.strategies.length - 1);
const open = (strategy: number): Step => ({ do: 'alert', strategy, action: 'open' });
const opened = (strategy: number, timeoutMs = 20_000): Step => ({ do: 'wait-until', until: 'positions-open', strategy, timeoutMs });
const pause = (c: EpisodeContext, min: number, max: number): Step => ({ do: 'wait', ms: c.d.ms(min, max) });

/** The way an order of the episode ends (or not): staff, a close alert, or left open for the next episode. */
function ending(c: EpisodeContext, strategy: number): Step[] {
  const roll = c.d.next();
  if (roll < 0.4) return [{ do: 'staff-close', strategy }];
  if (roll < 0.65) return [{ do: 'alert', strategy, action: 'close' }];
  return [];
}

const refusalCodes: Record<ExchangeName, Array<{ route: string; code: string; msg: string }>> = {
  bybit: [
    { route: '/v5/order/create', code: '10016', msg: 'Server error.' },
    { route: '/v5/order/create', code: '110007', msg: 'ab not enough for new order' },
    { route: '/v5/order/cancel', code: '10016', msg: 'Server error.' },
    { route: '/v5/position/trading-stop', code: '10016', msg: 'Server error.' },
  ],
  bitget: [
    { route: '/api/v2/mix/order/place-order', code: '40015', msg: 'The system is abnormal, please try again later' },
    { route: '/api/v2/mix/order/place-order', code: '43012', msg: 'Insufficient balance' },
    { route: '/api/v2/mix/order/place-tpsl-order', code: '40015', msg: 'The system is abnormal, please try again later' },
    { route: '/api/v2/mix/order/cancel-plan-order', code: '40015', msg: 'The system is abnormal, please try again later' },
  ],
};

function refusalFaults(c: EpisodeContext): PlannedFault[] {
  const rules: PlannedFault[] = [];
  for (let i = c.d.int(1, 3); i > 0; i -= 1) {
    const customer = anyCustomer(c);
    const refusal = c.d.pick(refusalCodes[c.customers[customer]!.exchange]);
    const create = refusalCodes[c.customers[customer]!.exchange][0]!.route;
    const kind = c.d.next();
    if (kind < 0.45) rules.push({ customer, route: refusal.route, reject: { code: refusal.code, msg: refusal.msg }, remaining: c.d.int(1, 3) });
    else if (kind < 0.6) rules.push({ customer, route: refusal.route, errorShare: 1, remaining: c.d.int(1, 2) });
    else if (kind < 0.72) rules.push({ customer, route: refusal.route, rateLimitShare: 1, remaining: c.d.int(1, 3) });
    else if (kind < 0.86) rules.push({ customer, route: create, hideOrderMs: c.d.ms(300, 3_000), remaining: c.d.int(1, 3) });
    else rules.push({ customer, route: refusal.route, timeoutShare: 1, timeoutMs: c.d.ms(1_000, 4_000), remaining: 1 });
  }
  return rules;
}

const families: Record<ScenarioName, (c: EpisodeContext) => Step[]> = {
  'thin-close': (c) => {
    const s = anyStrategy(c);
    return [open(s), opened(s), { do: 'book', shape: c.d.chance(0.5) ? 'empty' : 'thin', thinShare: c.d.int(2, 6) / 10 }, { do: 'staff-close', strategy: s }, pause(c, 1_000, 4_000), { do: 'book', shape: 'normal' }];
  },
  'partial-entry': (c) => {
    const s = anyStrategy(c);
    return [{ do: 'book', shape: 'thin', thinShare: c.d.int(2, 7) / 10 }, open(s), { do: 'wait-until', until: 'entries-done', strategy: s, timeoutMs: 20_000 }, { do: 'book', shape: 'normal' }, ...ending(c, s)];
  },
  refusals: (c) => {
    const s = anyStrategy(c);
    return [{ do: 'faults', rules: refusalFaults(c) }, open(s), opened(s), ...ending(c, s), pause(c, 500, 2_000), { do: 'faults', rules: [] }];
  },
  streams: (c) => {
    const s = anyStrategy(c);
    const faults: Step[] = [];
    const roll = c.d.next();
    if (roll < 0.35) faults.push({ do: 'stream-faults', rules: [{ customer: anyCustomer(c), delayMs: { min: 50, max: c.d.ms(200, 900) } }, { exchange: c.d.pick(['bybit', 'bitget'] as const), duplicateShare: c.d.int(3, 10) / 10 }] });
    else if (roll < 0.85) faults.push({ do: 'drop-streams', ...(c.d.chance(0.5) ? { customer: anyCustomer(c) } : { exchange: c.d.pick(['bybit', 'bitget'] as const) }), refuseMs: c.d.ms(0, 3_000) });
    else faults.push({ do: 'stream-faults', rules: [{ customer: anyCustomer(c), stall: true }] }, pause(c, 1_000, 3_000), { do: 'stream-faults', rules: [] });
    const customer = anyCustomer(c);
    return [open(s), opened(s), ...faults, { do: 'manual-close', customer, share: c.d.chance(0.5) ? 1 : 0.5 }, pause(c, 500, 2_000), { do: 'stream-faults', rules: [] }, ...ending(c, s)];
  },
  latency: (c) => {
    const s = anyStrategy(c);
    const skew = c.d.chance(0.4) ? c.d.pick([-1, 1]) * c.d.ms(2_000, 15_000) : 0;
    const clock: Step[] = skew !== 0 ? [{ do: 'clock', offsetMs: skew }] : [];
    return [...clock, { do: 'latency', ms: c.d.ms(100, 600) }, open(s), opened(s, 30_000), ...ending(c, s), pause(c, 500, 2_000), { do: 'latency', ms: 0 }, ...(skew !== 0 ? [{ do: 'clock', offsetMs: 0 } as Step] : [])];
  },
  kill: (c) => {
    const s = anyStrategy(c);
    const early = c.d.chance(0.5);
    const gap = c.d.chance(0.5) ? [{ do: 'latency', ms: c.d.ms(100, 300) } as Step] : [];
    return [...gap, open(s), early ? pause(c, 0, 800) : opened(s), { do: 'kill-worker' }, pause(c, 0, 2_000), { do: 'restart-worker' }, { do: 'latency', ms: 0 }, opened(s, 40_000), ...ending(c, s)];
  },
  manual: (c) => {
    const s = anyStrategy(c);
    const customer = anyCustomer(c);
    const act: Step = c.d.chance(0.5) ? { do: 'manual-close', customer, share: c.d.chance(0.5) ? 1 : c.d.int(3, 7) / 10 } : { do: 'cancel-stop', customer };
    return [open(s), opened(s), act, pause(c, 1_000, 3_000), ...ending(c, s)];
  },
  stops: (c) => {
    const s = anyStrategy(c);
    const strategy = c.strategies[s]!;
    const sign = strategy.side === 'long' ? 1 : -1;
    const hitStop = c.d.chance(0.5);
    const move = hitStop ? -sign * (strategy.stopPercent + c.d.int(2, 10) / 10) / 100 : sign * (strategy.tp[0]!.target + 0.1) / 100;
    // D4: a Bybit account short of margin when its stop triggers (a conditional order without closeOnTrigger is cancelled).
    const bybit = c.customers.flatMap((customer, i) => (customer.exchange === 'bybit' ? [i] : []));
    const short = hitStop && c.d.chance(0.4) ? c.d.pick(bybit) : undefined;
    const marginShort = (value: boolean): Step[] => (short === undefined ? [] : [{ do: 'margin-short', customer: short, short: value }]);
    return [open(s), opened(s), ...marginShort(true), { do: 'price', move }, pause(c, 1_000, 3_000), ...marginShort(false), { do: 'price', move: 0 }, ...(hitStop ? [] : ending(c, s))];
  },
  liquidation: (c) => {
    const s = anyStrategy(c);
    return [open(s), opened(s), { do: 'liquidate', customer: anyCustomer(c) }, pause(c, 1_000, 3_000), { do: 'price', move: 0 }, ...ending(c, s)];
  },
  'staff-during-entry': (c) => {
    const s = anyStrategy(c);
    const lag = c.d.chance(0.5) ? [{ do: 'latency', ms: c.d.ms(100, 400) } as Step] : [];
    return [...lag, open(s), pause(c, 0, 300), { do: 'staff-close', strategy: s }, pause(c, 1_000, 2_000), { do: 'latency', ms: 0 }];
  },
  'alert-during-close': (c) => {
    const s = anyStrategy(c);
    const other = anyStrategy(c);
    return [open(s), opened(s), { do: 'book', shape: 'thin', thinShare: c.d.int(2, 5) / 10 }, { do: 'staff-close', strategy: s }, pause(c, 0, 1_000), open(other), pause(c, 1_000, 3_000), { do: 'book', shape: 'normal' }, opened(other), ...ending(c, other)];
  },
  'two-strategies': (c) => {
    const first = c.d.int(0, c.strategies.length - 1);
    const second = c.strategies.length > 1 ? 1 - first : first;
    const steps: Step[] = [open(first), opened(first), open(second), opened(second)];
    if (c.d.chance(0.5)) steps.push({ do: 'manual-close', customer: anyCustomer(c), share: c.d.int(2, 6) / 10 }, pause(c, 500, 2_000));
    return [...steps, ...ending(c, first)];
  },
};

/** The plan of one seed, drawn from `allowed` scenario families (all of them by default). */
export function planOf(seed: number, allowed: readonly ScenarioName[] = SCENARIOS): ChaosPlan {
  const d = new Draw(seed);
  const chosen: ScenarioName[] = [];
  for (let i = d.int(2, 3); i > 0; i -= 1) chosen.push(d.pick(allowed));
  const customers = customersOf(d);
  const strategies = strategiesOf(d, chosen);
  const engine = chosen.includes('kill') ? 'worker' : 'in-process';
  const context: EpisodeContext = { d, customers, strategies, engine };
  const episodes = chosen.map((scenario) => ({ scenario, steps: families[scenario](context) }));
  return { seed, symbol: 'BTCUSDT', startPrice: 60_000, positionMode: d.chance(0.2) ? 'hedge' : 'oneway', engine, customers, strategies, episodes };
}

/** One line per step, for a failing seed's report. */
export function describePlan(plan: ChaosPlan): string {
  const people = plan.customers.map((c, i) => `#${i} ${c.exchange}/${c.group}`).join(', ');
  const strategies = plan.strategies.map((s) => `${s.name} ${s.side} ${s.quantity} tp ${s.tp.map((t) => `${t.target}%x${t.volume}`).join('/')} sl ${s.stopPercent}%${s.advanceStopLoss ? ' adv' : ''}${s.trailing ? ' trail' : ''} [${s.groups.join(',')}]`).join('; ');
  const episodes = plan.episodes.map((e, i) => `  episode ${i + 1} ${e.scenario}: ${e.steps.map((s) => JSON.stringify(s)).join(' ')}`).join('\n');
  return `engine ${plan.engine}, ${plan.positionMode}; customers ${people}; strategies ${strategies}\n${episodes}`;
}
