import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { ChannelListener } from '../db/channel-listener';
import { loadContexts, type ExecutionContext } from './context';
import type { ExchangeId } from './exchanges/types';
import { LANES, laneOf, lanePlatform } from './lanes';
import { claimExecutions, EXECUTIONS_CHANNEL, releaseAllClaims, releaseClaims, renewClaims, type JobKind } from './execution-state/queue';
import type { LocalRunner } from './intake-state';
import type { AccountLeases } from './accounts/leases';
import type { TradingRuntime } from './runtime';
import { runExecution } from './steps/run';
import { coalesced } from './dispatch/coalesced';
import { LanePlaces } from './dispatch/lane-places';
import { NextDueTimer } from './dispatch/next-due';
import { PressureGauge } from './dispatch/pressure';

export interface Dispatcher extends LocalRunner {
  start(): Promise<void>;
  /** Stops claiming, waits for in-flight executions, releases leftover claims. */
  stop(): Promise<void>;
  /** Claims due work now (called on NOTIFY; callers in the same process may call it directly). */
  wake(): void;
  /** Executions currently in flight in this process. */
  inFlight(): number;
}

export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

const CLAIM_BATCH = 200;
/** Contexts of executions handed over by id read per statement (the alert's statement read the first ones). */
const LATER_CONTEXTS_BATCH = 1_000;
/** Claimed executions started per turn of the event loop. */
const START_GROUP = 25;

/**
 * The durable fan-out: claims executions from PostgreSQL (FOR UPDATE SKIP LOCKED) and runs many at
 * once, so the shared exchange rate limiter, not this loop, sets the pace. Woken by LISTEN/NOTIFY;
 * a slow safety poll catches retries that fall due and claims that expire from dead processes.
 */
export function createDispatcher(rt: TradingRuntime, pool: pg.Pool, leases?: AccountLeases): Dispatcher {
  const dispatcher = new PostgresDispatcher(rt, pool, leases);
  // A plain object of bound functions: callers spread it (start.ts) and pass its methods around.
  return {
    worker: dispatcher.worker,
    leaseMs: dispatcher.leaseMs,
    contextsInStatement: dispatcher.contextsInStatement,
    start: () => dispatcher.start(),
    stop: () => dispatcher.stop(),
    wake: dispatcher.wake,
    inFlight: () => dispatcher.inFlight(),
    freeSlots: (lane) => dispatcher.freeSlots(lane),
    slices: () => dispatcher.slices(),
    prepare: (symbol) => dispatcher.prepare(symbol),
    adopt: (claimed, later) => dispatcher.adopt(claimed, later),
  };
}

class PostgresDispatcher implements Dispatcher {
  readonly worker: string;
  readonly leaseMs: number;
  readonly contextsInStatement: number;
  /** Claims due work now, or once more right after the claim in progress. */
  readonly wake: () => void;
  /** One next-due reading at a time, however many executions end meanwhile (the last reading covers them). */
  private readonly timeNextDue: () => void;
  private readonly running = new Map<number, Promise<void>>();
  private readonly places: LanePlaces;
  private readonly nextDue: NextDueTimer;
  private readonly pressure: PressureGauge;
  private listener: ChannelListener | undefined;
  private timers: NodeJS.Timeout[] = [];
  private stopped = true;

  constructor(
    private readonly rt: TradingRuntime,
    private readonly pool: pg.Pool,
    private readonly leases?: AccountLeases,
  ) {
    this.worker = rt.worker;
    this.leaseMs = rt.config.leaseMs;
    this.contextsInStatement = rt.config.handoffContexts;
    const active = () => !this.stopped;
    this.places = new LanePlaces(rt.config.concurrency);
    this.pressure = new PressureGauge(rt, active);
    this.nextDue = new NextDueTimer(rt.db, rt.config.safetyPollMs, active, () => this.wake());
    this.wake = coalesced(() => this.drain(), (error) => rt.log.error({ err: error }, 'claiming executions failed'), active);
    this.timeNextDue = coalesced(() => this.nextDue.schedule(), (error) => rt.log.error({ err: error }, 'timing the next claim failed'), active);
  }

  async start(): Promise<void> {
    this.stopped = false;
    // Reconnected after a drop: what was queued meanwhile woke nobody, so claim at once.
    this.listener = new ChannelListener(this.pool.options, EXECUTIONS_CHANNEL, { message: () => this.wake(), listening: () => this.wake() }, this.rt.log, 'dispatcher');
    await this.listener.start();
    const renewEvery = Math.max(500, Math.floor(this.leaseMs / 3));
    this.timers = [setInterval(() => this.wake(), this.rt.config.safetyPollMs), setInterval(() => this.renewClaims(), renewEvery)];
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.nextDue.stop();
    this.pressure.stop();
    await this.listener?.stop();
    this.listener = undefined;
    await Promise.allSettled([...this.running.values()]);
    await releaseAllClaims(this.rt.db, this.worker).catch(() => undefined);
  }

  inFlight(): number {
    return this.running.size;
  }

  freeSlots(lane: ExchangeId): number {
    return this.stopped ? 0 : this.places.free(lane);
  }

  slices(): readonly number[] | null {
    return this.leases ? [...this.leases.owned()] : null;
  }

  prepare(symbol: string): void {
    for (const lane of LANES) {
      if (this.rt.adapters(lanePlatform[lane])) this.rt.prices.quote(lane, symbol).catch(() => undefined);
    }
  }

  /**
   * Executions the intake of this process claimed for it in the alert's statement: those the statement
   * read start at once, no DB round trip first; the contexts of the others (`later`) are read meanwhile.
   */
  adopt(claimed: ExecutionContext[], later: readonly number[] = []): void {
    if (this.stopped) return this.giveBack([...claimed.map((ctx) => ctx.id), ...later]);
    this.expectRequests(claimed);
    this.runClaimed('work', claimed);
    if (later.length > 0) void this.adoptLater(later);
    this.pressure.refreshLogged();
  }

  private renewClaims(): void {
    renewClaims(this.rt.db, this.worker, [...this.running.keys()], this.leaseMs).catch((error: unknown) => this.rt.log.error({ err: error }, 'lease renewal failed'));
  }

  private async drain(): Promise<void> {
    await this.pressure.refresh();
    while (!this.stopped) {
      if ((await this.claimAndRun('work', (lane) => this.freeSlots(lane))) > 0) continue;
      await this.claimAndRun('sync', (lane) => (this.stopped ? 0 : this.places.freeForSync(lane)));
      await this.nextDue.schedule();
      return;
    }
  }

  /** One claim statement for every lane with room (`room(lane)` each), then the claimed executions' contexts. */
  private async claimAndRun(kind: JobKind, room: (lane: ExchangeId) => number): Promise<number> {
    const limit = Object.fromEntries(LANES.map((lane) => [lane, Math.min(CLAIM_BATCH, room(lane))]));
    this.places.claiming();
    if (LANES.every((lane) => limit[lane]! <= 0)) return 0;
    const ids = await claimExecutions(this.rt.db, { worker: this.worker, limit, leaseMs: this.leaseMs, kind });
    const contexts = ids.length > 0 ? await loadContexts(this.rt.db, this.worker, ids) : [];
    if (contexts.length === ids.length) {
      for (const lane of LANES) this.places.claimed(lane, limit[lane]!, contexts.filter((ctx) => laneOf(ctx.platformType) === lane).length);
    }
    if (contexts.length > 0) this.runClaimed(kind, contexts);
    return ids.length;
  }

  /**
   * Starts executions claimed by this worker: from the queue, or handed over by this process's intake.
   * An execution holds its lane's place until it ends, or until its entry is placed: its protection
   * then waits for the exchange's budget without keeping the next customers' entries from starting.
   * They start a group per turn of the event loop (places taken for all at once): started together,
   * thousands would take each step in lockstep and the first entry would leave only after every other
   * had been prepared; in between, the answers already in are read.
   */
  private runClaimed(kind: JobKind, contexts: readonly ExecutionContext[]): void {
    const places = contexts.map((ctx) => this.places.take(kind, laneOf(ctx.platformType)));
    const startFrom = (from: number) => {
      if (this.stopped) {
        for (const free of places.slice(from)) free();
        return this.giveBack(contexts.slice(from).map((ctx) => ctx.id));
      }
      const to = Math.min(contexts.length, from + START_GROUP);
      for (let i = from; i < to; i += 1) this.run(contexts[i]!, places[i]!);
      if (to < contexts.length) setImmediate(() => startFrom(to));
    };
    startFrom(0);
  }

  private run(ctx: ExecutionContext, freePlace: () => void): void {
    const lane = laneOf(ctx.platformType);
    const entryPlaced = () => {
      freePlace();
      if (this.places.mayHaveWaiting(lane)) this.wake();
    };
    const task = runExecution(this.rt, ctx, entryPlaced)
      .catch((error: unknown) => this.rt.log.error({ err: error, executionId: ctx.id }, 'execution crashed'))
      .finally(() => {
        this.running.delete(ctx.id);
        freePlace();
        // Its place claims again only where work may wait; it may have gone back to the queue, due
        // again later (or now): the next wake-up is timed for it, and a claim follows when that falls due.
        if (this.places.mayHaveWaiting(lane)) this.wake();
        else this.timeNextDue();
      });
    this.running.set(ctx.id, task);
  }

  /** Tells each exchange's adapter how many requests are coming (it opens connections ahead). */
  private expectRequests(entries: ReadonlyArray<{ platformType: number }>): void {
    const perPlatform = new Map<number, number>();
    for (const { platformType } of entries) perPlatform.set(platformType, (perPlatform.get(platformType) ?? 0) + 1);
    for (const [platformType, count] of perPlatform) this.rt.adapters(platformType)?.expectRequests(count);
  }

  /** Stopping, or their contexts could not be read: back to the queue for any process (their claim would otherwise wait out its lease). */
  private giveBack(ids: readonly number[]): void {
    releaseClaims(this.rt.db, this.worker, [...ids]).catch((error: unknown) => this.rt.log.error({ err: error, executions: ids.length }, 'releasing handed-over executions failed'));
  }

  /**
   * Reads the contexts of executions handed over by id, in batches read at once (one connection each,
   * so the database works on them side by side), and starts each batch, in order, as it arrives.
   */
  private async adoptLater(ids: readonly number[]): Promise<void> {
    const batches: number[][] = [];
    for (let at = 0; at < ids.length; at += LATER_CONTEXTS_BATCH) batches.push(ids.slice(at, at + LATER_CONTEXTS_BATCH));
    const reads = batches.map((batch) => loadContexts(this.rt.db, this.worker, batch));
    for (const [i, read] of reads.entries()) {
      const contexts = await read.catch((error: unknown) => {
        this.rt.log.error({ err: error, executions: batches[i]!.length }, 'reading handed-over executions failed');
        return null;
      });
      if (!contexts || this.stopped) {
        this.giveBack(batches[i]!);
        continue;
      }
      this.expectRequests(contexts);
      this.runClaimed('work', contexts);
    }
  }
}
