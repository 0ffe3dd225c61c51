import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { ChannelListener } from '../db/channel-listener';
import { loadContexts, type ExecutionContext } from './context';
import type { ExchangeId } from './exchanges/types';
import { LANES, laneOf, lanePlatform } from './lanes';
import { claimExecutions, EXECUTIONS_CHANNEL, nextWorkDueInMs, pendingEntries, releaseAllClaims, releaseClaims, renewClaims, type JobKind } from './execution-state/queue';
import type { LocalRunner } from './intake-state';
import type { AccountLeases } from './accounts/leases';
import { exchangeIdOf, type TradingRuntime } from './runtime';
import { runExecution } from './steps/run';

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

/** How often the entries waiting in the queue (every process's) are counted for the pacer while there are any. */
const PRESSURE_REFRESH_MS = 250;
/** Sync jobs in flight at once per lane, so entries always find room (more at once would only queue for the same budget). */
const SYNC_PLACES = 50;
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
  const running = new Map<number, Promise<void>>();
  /** Executions in flight per lane, and how many of them are sync jobs. */
  const inLane = new Map<ExchangeId, { all: number; sync: number }>(LANES.map((lane) => [lane, { all: 0, sync: 0 }]));
  const laneCount = (lane: ExchangeId) => inLane.get(lane)!;
  const freeIn = (lane: ExchangeId) => (stopped ? 0 : Math.max(0, rt.config.concurrency - laneCount(lane).all));
  let listener: ChannelListener | undefined;
  let timers: NodeJS.Timeout[] = [];
  let stopped = true;
  let dueTimer: NodeJS.Timeout | undefined;
  let dueAt = Infinity;
  let pressureTimer: NodeJS.Timeout | undefined;
  let pressureReadAt = -Infinity;
  /**
   * Lanes where due work may be waiting for a place: their last claim had no room to look, or took
   * all it asked for. Only a place freed in one of them claims again; otherwise the thousands of places
   * a fan-out frees would each query a queue known to hold nothing due (new work wakes us by NOTIFY).
   */
  const mayHaveWaiting = new Set<ExchangeId>();

  /** Wakes this process when the next retry falls due, instead of waiting for the safety poll. */
  async function scheduleNextDue(): Promise<void> {
    const ms = await nextWorkDueInMs(rt.db);
    if (ms === null || stopped) return;
    const wait = Math.min(ms + 5, rt.config.safetyPollMs);
    // A reading finished meanwhile may have timed an earlier wake-up: it stands (waking early costs one drain).
    if (dueTimer && dueAt <= performance.now() + wait) return;
    if (dueTimer) clearTimeout(dueTimer);
    dueAt = performance.now() + wait;
    dueTimer = setTimeout(() => {
      dueTimer = undefined;
      pump();
    }, wait);
  }

  /**
   * Tells the pacer how many entries are still to be placed per exchange, and by when: at most every
   * PRESSURE_REFRESH_MS (drains come back to back during a fan-out), and on a timer while any wait.
   */
  async function refreshPressure(): Promise<void> {
    if (performance.now() - pressureReadAt < PRESSURE_REFRESH_MS) return;
    pressureReadAt = performance.now();
    const rows = await pendingEntries(rt.db);
    for (const exchange of ['bybit', 'bitget'] as const) {
      const row = rows.find((r) => exchangeIdOf(r.platformType) === exchange);
      rt.pacer.setPressure(exchange, { pending: row?.pending ?? 0, earliestDeadline: row ? row.earliestDeadline.getTime() : null });
    }
    if (pressureTimer) clearTimeout(pressureTimer);
    pressureTimer = rows.length > 0 && !stopped ? setTimeout(() => void refreshPressure().catch((error: unknown) => rt.log.error({ err: error }, 'counting pending entries failed')), PRESSURE_REFRESH_MS) : undefined;
  }

  /**
   * Starts executions claimed by this worker: from the queue, or handed over by this process's intake.
   * An execution holds its lane's place until it ends, or until its entry is placed: its protection
   * then waits for the exchange's budget without keeping the next customers' entries from starting.
   * They start a group per turn of the event loop (places taken for all at once): started together,
   * thousands would take each step in lockstep and the first entry would leave only after every other
   * had been prepared; in between, the answers already in are read.
   */
  function runClaimed(kind: JobKind, contexts: readonly ExecutionContext[]): void {
    const places = contexts.map((ctx) => takePlace(kind, laneOf(ctx.platformType)));
    const startFrom = (from: number) => {
      if (stopped) {
        for (const free of places.slice(from)) free();
        return giveBack(contexts.slice(from).map((ctx) => ctx.id));
      }
      const to = Math.min(contexts.length, from + START_GROUP);
      for (let i = from; i < to; i += 1) start(contexts[i]!, places[i]!);
      if (to < contexts.length) setImmediate(() => startFrom(to));
    };
    startFrom(0);
  }

  /** A place in the lane, freed (once) by the function returned. */
  function takePlace(kind: JobKind, lane: ExchangeId): () => void {
    const count = laneCount(lane);
    count.all += 1;
    if (kind === 'sync') count.sync += 1;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      count.all -= 1;
      if (kind === 'sync') count.sync -= 1;
    };
  }

  function start(ctx: ExecutionContext, freePlace: () => void): void {
    const lane = laneOf(ctx.platformType);
    const entryPlaced = () => {
      freePlace();
      if (mayHaveWaiting.has(lane)) pump();
    };
    const task = runExecution(rt, ctx, entryPlaced)
      .catch((error: unknown) => rt.log.error({ err: error, executionId: ctx.id }, 'execution crashed'))
      .finally(() => {
        running.delete(ctx.id);
        freePlace();
        // Its place claims again only where work may wait; it may have gone back to the queue, due
        // again later (or now): the next wake-up is timed for it, and a claim follows when that falls due.
        if (mayHaveWaiting.has(lane)) pump();
        else timeNextDue();
      });
    running.set(ctx.id, task);
  }

  /** One claim statement for every lane with room (`room(lane)` each), then the claimed executions' contexts. */
  async function claimAndRun(kind: JobKind, room: (lane: ExchangeId) => number): Promise<number> {
    const limit = Object.fromEntries(LANES.map((lane) => [lane, Math.min(CLAIM_BATCH, room(lane))]));
    // Until a claim shows a lane's due work all taken, some may be waiting there.
    for (const lane of LANES) mayHaveWaiting.add(lane);
    if (LANES.every((lane) => limit[lane]! <= 0)) return 0;
    const ids = await claimExecutions(rt.db, { worker: rt.worker, limit, leaseMs: rt.config.leaseMs, kind });
    const contexts = ids.length > 0 ? await loadContexts(rt.db, rt.worker, ids) : [];
    for (const lane of LANES) {
      const taken = contexts.filter((ctx) => laneOf(ctx.platformType) === lane).length;
      if (limit[lane]! > 0 && taken < limit[lane]! && contexts.length === ids.length) mayHaveWaiting.delete(lane);
    }
    if (contexts.length > 0) runClaimed(kind, contexts);
    return ids.length;
  }

  function expect(entries: ReadonlyArray<{ platformType: number }>): void {
    const perPlatform = new Map<number, number>();
    for (const { platformType } of entries) perPlatform.set(platformType, (perPlatform.get(platformType) ?? 0) + 1);
    for (const [platformType, count] of perPlatform) rt.adapters(platformType)?.expectRequests(count);
  }

  /** Stopping, or their contexts could not be read: back to the queue for any process (their claim would otherwise wait out its lease). */
  function giveBack(ids: readonly number[]): void {
    releaseClaims(rt.db, rt.worker, [...ids]).catch((error: unknown) => rt.log.error({ err: error, executions: ids.length }, 'releasing handed-over executions failed'));
  }

  /**
   * Reads the contexts of executions handed over by id, in batches read at once (one connection each,
   * so the database works on them side by side), and starts each batch, in order, as it arrives.
   */
  async function adoptLater(ids: readonly number[]): Promise<void> {
    const batches: number[][] = [];
    for (let at = 0; at < ids.length; at += LATER_CONTEXTS_BATCH) batches.push(ids.slice(at, at + LATER_CONTEXTS_BATCH));
    const reads = batches.map((batch) => loadContexts(rt.db, rt.worker, batch));
    for (const [i, read] of reads.entries()) {
      let contexts: ExecutionContext[];
      try {
        contexts = await read;
      } catch (error) {
        rt.log.error({ err: error, executions: batches[i]!.length }, 'reading handed-over executions failed');
        giveBack(batches[i]!);
        continue;
      }
      if (stopped) {
        giveBack(batches[i]!);
        continue;
      }
      expect(contexts);
      runClaimed('work', contexts);
    }
  }

  /**
   * Executions the intake of this process claimed for it in the alert's statement: those the statement
   * read start at once, no DB round trip first; the contexts of the others (`later`) are read meanwhile.
   */
  function adopt(claimed: ExecutionContext[], later: readonly number[] = []): void {
    if (stopped) return giveBack([...claimed.map((ctx) => ctx.id), ...later]);
    expect(claimed);
    runClaimed('work', claimed);
    if (later.length > 0) void adoptLater(later);
    refreshPressure().catch((error: unknown) => rt.log.error({ err: error }, 'counting pending entries failed'));
  }


  async function drain(): Promise<void> {
    await refreshPressure();
    for (;;) {
      if (stopped) return;
      if ((await claimAndRun('work', freeIn)) > 0) continue;
      await claimAndRun('sync', (lane) => Math.min(SYNC_PLACES - laneCount(lane).sync, freeIn(lane)));
      await scheduleNextDue();
      return;
    }
  }

  /** Runs `work` now, or once more right after the run in progress: calls meanwhile merge into that one. */
  function coalesced(work: () => Promise<void>, failure: string): () => void {
    let busy = false;
    let again = false;
    return () => {
      if (stopped) return;
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      void (async () => {
        do {
          again = false;
          try {
            await work();
          } catch (error) {
            rt.log.error({ err: error }, failure);
          }
        } while (again && !stopped);
        busy = false;
      })();
    };
  }
  const pump = coalesced(drain, 'claiming executions failed');
  /** One next-due reading at a time, however many executions end meanwhile (the last reading covers them). */
  const timeNextDue = coalesced(scheduleNextDue, 'timing the next claim failed');

  return {
    worker: rt.worker,
    async start() {
      stopped = false;
      // Reconnected after a drop: what was queued meanwhile woke nobody, so claim at once.
      listener = new ChannelListener(pool.options, EXECUTIONS_CHANNEL, { message: () => pump(), listening: () => pump() }, rt.log, 'dispatcher');
      await listener.start();
      timers = [
        setInterval(pump, rt.config.safetyPollMs),
        setInterval(() => {
          renewClaims(rt.db, rt.worker, [...running.keys()], rt.config.leaseMs).catch((error: unknown) => rt.log.error({ err: error }, 'lease renewal failed'));
        }, Math.max(500, Math.floor(rt.config.leaseMs / 3))),
      ];
      pump();
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      timers = [];
      if (dueTimer) clearTimeout(dueTimer);
      if (pressureTimer) clearTimeout(pressureTimer);
      await listener?.stop();
      listener = undefined;
      await Promise.allSettled([...running.values()]);
      await releaseAllClaims(rt.db, rt.worker).catch(() => undefined);
    },
    wake: pump,
    inFlight: () => running.size,
    leaseMs: rt.config.leaseMs,
    freeSlots: freeIn,
    slices: () => (leases ? [...leases.owned()] : null),
    prepare: (symbol) => {
      for (const lane of LANES) {
        if (rt.adapters(lanePlatform[lane])) rt.prices.quote(lane, symbol).catch(() => undefined);
      }
    },
    contextsInStatement: rt.config.handoffContexts,
    adopt,
  };
}
