import { sql } from 'drizzle-orm';
import { AccountType, AmountType, CustomerGroup, EntryDirection, PositionMode } from '../../contract/enums';
import { defaultBook, startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { insertStrategy, startEngine, tradingCustomer, type TradingCustomer } from '../engine/fixtures';
import { createPerson } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { Delivery } from './delivery';
import type { ObservedCustomer } from './observe';
import type { ChaosPlan, CustomerPlan, StrategyPlan } from './plan';
import { WorkerProcess } from './worker-process';

/**
 * The engine's timers in a chaos run: the production sync period (the reconciler's slow timer), a
 * short lease so a killed worker's accounts move on within seconds, and a quick safety poll.
 */
export const ENGINE_SETTINGS = { syncIntervalMs: 15_000, leaseMs: 3_000, safetyPollMs: 1_000 } as const;

export interface ChaosCustomer extends ObservedCustomer {
  plan: CustomerPlan;
  trading: TradingCustomer;
}

export interface ChaosStrategy {
  plan: StrategyPlan;
  id: string;
  url: string;
}

/** An entry alert sent, and who it was for. */
export interface SentAlert {
  strategy: number;
  orderId: number;
  at: number;
  /** Customer ids the alert had to reach (their group follows the strategy). */
  eligible: number[];
}

/** Runs the engine: in this process (the dispatcher as the engine tests start it), or as `server/worker.ts` children. */
export interface EngineRunner {
  readonly kind: ChaosPlan['engine'];
  kill(): Promise<void>;
  restart(): Promise<void>;
  /** Whether it runs now (false between a kill and its restart). */
  running(): boolean;
  stop(): Promise<void>;
  errors(): string;
  /** The process the engine runs in now (this one for the in-process engine; undefined while killed). */
  pid(): number | undefined;
}

export interface ChaosWorld {
  plan: ChaosPlan;
  ctx: TestContext;
  sandbox: RunningSandbox;
  customers: ChaosCustomer[];
  strategies: ChaosStrategy[];
  adminAccountId: number;
  engine: EngineRunner;
  alerts: SentAlert[];
  delivery: Delivery;
  startedAt: number;
  /** What the harness did, with seconds since the start: printed for a failing seed. */
  log: string[];
  note(line: string): void;
}

const groupOf = { gold: CustomerGroup.Gold, vip: CustomerGroup.Vip } as const;

function strategyInput(plan: ChaosPlan, strategy: StrategyPlan) {
  return {
    symbol: plan.symbol,
    entryDirection: strategy.side === 'long' ? EntryDirection.Long : EntryDirection.Short,
    positionMode: plan.positionMode === 'hedge' ? PositionMode.Hedge : PositionMode.OneWay,
    tp: strategy.tp,
    stopLoss: { type: AmountType.Percent, amount: strategy.stopPercent },
    advanceStopLoss: strategy.advanceStopLoss,
    trailing: strategy.trailing ? { activationType: AmountType.Percent, activation: 1, closeType: AmountType.Percent, close: 0.5 } : undefined,
    groups: strategy.groups.map((group) => ({ group: groupOf[group], investType: AmountType.Quantity, amount: strategy.quantity })),
  };
}

class InProcessEngine implements EngineRunner {
  readonly kind = 'in-process' as const;
  constructor(private dispatcher: Dispatcher) {}
  static async start(ctx: TestContext, sandbox: RunningSandbox): Promise<InProcessEngine> {
    return new InProcessEngine(await startEngine(ctx, sandbox, { ...ENGINE_SETTINGS }));
  }
  kill(): Promise<void> {
    throw new Error('the in-process engine is not killed; plans with kill -9 run worker processes');
  }
  restart(): Promise<void> {
    return Promise.resolve();
  }
  running = () => true;
  stop = () => this.dispatcher.stop();
  errors = () => '';
  pid = () => process.pid;
}

class WorkerEngine implements EngineRunner {
  readonly kind = 'worker' as const;
  private worker: WorkerProcess;
  private readonly earlier: string[] = [];
  constructor(private readonly make: () => WorkerProcess) {
    this.worker = make();
    this.worker.start();
  }
  kill = () => this.worker.kill();
  async restart(): Promise<void> {
    this.earlier.push(this.worker.errors());
    this.worker = this.make();
    this.worker.start();
  }
  running = () => this.worker.running;
  stop = () => this.worker.stop();
  errors = () => [...this.earlier, this.worker.errors()].filter(Boolean).join('\n--- restarted ---\n');
  pid = () => (this.worker.running ? this.worker.pid : undefined);
}

async function startEngineOf(plan: ChaosPlan, ctx: TestContext, sandbox: RunningSandbox): Promise<EngineRunner> {
  if (plan.engine === 'in-process') return InProcessEngine.start(ctx, sandbox);
  return new WorkerEngine(() => new WorkerProcess(ctx, { sandboxUrl: sandbox.url, ...ENGINE_SETTINGS }));
}

/** A fresh database, a sandbox seeded with the plan's seed, the plan's customers and strategies, and the engine. */
export async function buildWorld(plan: ChaosPlan): Promise<ChaosWorld> {
  const ctx = await createTestContext();
  const sandbox = await startSandbox({ seed: plan.seed, randomWalk: false, book: { ...defaultBook } });
  sandbox.control.setPrice(plan.symbol, plan.startPrice);
  const customers: ChaosCustomer[] = [];
  for (const customer of plan.customers) {
    const trading = await tradingCustomer(ctx, sandbox, { exchange: customer.exchange, group: groupOf[customer.group], balance: 100_000 });
    customers.push({ plan: customer, trading, customerId: trading.customerId, exchange: customer.exchange, uid: trading.sandbox!.uid });
  }
  const strategies: ChaosStrategy[] = [];
  for (const strategy of plan.strategies) {
    const made = await insertStrategy(ctx, { id: `CH${strategy.name}${plan.seed}`.slice(0, 20), ...strategyInput(plan, strategy) });
    strategies.push({ plan: strategy, id: made.id, url: made.url });
  }
  const admin = await createPerson(ctx, AccountType.Admin);
  const engine = await startEngineOf(plan, ctx, sandbox);
  const startedAt = Date.now();
  const log: string[] = [];
  return {
    plan,
    ctx,
    sandbox,
    customers,
    strategies,
    adminAccountId: admin.accountId,
    engine,
    alerts: [],
    delivery: new Delivery(),
    startedAt,
    log,
    note: (line) => log.push(`${((Date.now() - startedAt) / 1000).toFixed(1)}s ${line}`),
  };
}

export async function closeWorld(world: ChaosWorld): Promise<void> {
  await world.engine.stop().catch(() => undefined);
  await Promise.race([world.sandbox.close(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
  await world.ctx.close();
}

/** Customer ids whose group follows the strategy. */
export function eligibleFor(world: ChaosWorld, strategy: number): number[] {
  const groups = world.strategies[strategy]!.plan.groups;
  return world.customers.filter((c) => groups.includes(c.plan.group)).map((c) => c.customerId);
}

/** Whether a worker other than the ones listed beats in `trading_workers` since `since` (a restarted worker is up). */
export async function workerBeatSince(world: ChaosWorld, since: number): Promise<boolean> {
  const result = await world.ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from trading_workers where heartbeat_at > ${new Date(since).toISOString()}::timestamptz`);
  return Number(result.rows[0]!.n) > 0;
}

/**
 * When the parts of the exchanges' per-address windows that killed workers left behind have lapsed
 * (egress_shares: a holder is "host:pid:suffix"): until then the restarted worker may not get a request
 * out to that exchange at all (25 s for Bybit, 80 s for Bitget by design, README "one that dies leaves its
 * part counted until it lapses"). 0 when no dead process holds a part.
 */
export async function deadEgressPartsLapseAt(world: ChaosWorld): Promise<number> {
  // The engine and this process (the API the alerts go through) are alive; any other holder was killed.
  const live = new Set([world.engine.pid(), process.pid]);
  const result = await world.ctx.deps.db.execute<{ holder: string; expires_at: string }>(sql`select holder, expires_at from egress_shares where capacity > 0`);
  const dead = result.rows.filter((row) => !live.has(Number(row.holder.split(':').at(-2))));
  return Math.max(0, ...dead.map((row) => new Date(row.expires_at).getTime()));
}
