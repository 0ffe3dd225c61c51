import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CEILINGS, ExchangeRateLimiter, type ExchangeCeilings } from '../../server/trading/exchanges/rate-limiter';
import { AddressBans } from '../../server/trading/exchanges/address-ban';
import { createPostgresEgressBudget, type EgressBudget, type SharedBans } from '../../server/trading/exchanges/egress-budget';
import { ROUND_MS } from '../../server/trading/exchanges/egress-share';
import { ConnectionBudget } from '../../server/trading/exchanges/bybit-ws/connection-budget';
import type { ExchangeId } from '../../server/trading/exchanges/types';
import { createDb, type DbHandle } from '../../server/db/client';
import { createTestContext, type TestContext } from '../helpers/test-app';

/** 30 requests a second per address: small enough that two busy limiters exceed it together within a second. */
const CEILING = { limit: 30, windowMs: 1_000 };
const ceilings: Record<ExchangeId, ExchangeCeilings> = { ...DEFAULT_CEILINGS, bybit: { ...DEFAULT_CEILINGS.bybit, perIp: CEILING, maxInFlight: 100 } };

/** The most grants that fell in any window of `windowMs` (the exchange's sliding count). */
function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; end < sorted.length; end += 1) {
    while (sorted[end]! - sorted[start]! >= windowMs) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

/** `count` requests through `limiter` as fast as it grants them; answers when each was granted. */
async function burst(limiter: ExchangeRateLimiter, egress: string, count: number): Promise<number[]> {
  const granted: number[] = [];
  await Promise.all(
    Array.from({ length: count }, async () => {
      const release = await limiter.acquire({ exchange: 'bybit', egress, write: undefined });
      granted.push(Date.now());
      release();
    }),
  );
  return granted;
}

/** This limiter's part of an address's window, as its window is sized now. */
const partOf = (limiter: ExchangeRateLimiter, egress: string) => limiter.stats().perIp[`bybit:${egress}`]?.limit ?? 0;

describe('one budget per exchange and egress address, shared by every process on it', () => {
  let ctx: TestContext;
  let second: DbHandle;
  const budgets: EgressBudget[] = [];
  /** A process on the address: its own limiter, sharing through its own database connections. */
  const processOn = (db: DbHandle['db'], shared?: SharedBans, limits = ceilings) => {
    const budget = createPostgresEgressBudget(db, shared);
    budgets.push(budget);
    return new ExchangeRateLimiter(limits, 0, shared?.bans ?? new AddressBans(), budget);
  };
  beforeAll(async () => {
    ctx = await createTestContext();
    second = createDb(ctx.database.url, { max: 2, applicationName: 'second-process' });
  });
  afterEach(async () => {
    await Promise.all(budgets.splice(0).map((budget) => budget.stop?.()));
  });
  afterAll(async () => {
    await second.close();
    await ctx.close();
  });

  it('two limiters (two processes, their own database connections) on one address stay under the ceiling together', async () => {
    const api = processOn(ctx.deps.db);
    const worker = processOn(second.db);
    const [a, b] = await Promise.all([burst(api, 'shared-ip', 45), burst(worker, 'shared-ip', 45)]);
    expect(a).toHaveLength(45);
    expect(b).toHaveLength(45);
    expect(busiestWindow([...a, ...b], CEILING.windowMs)).toBeLessThanOrEqual(CEILING.limit);
  }, 20_000);

  it('without the shared budget the same two limiters exceed the ceiling together (what the budget prevents)', async () => {
    const api = new ExchangeRateLimiter(ceilings, 0, new AddressBans());
    const worker = new ExchangeRateLimiter(ceilings, 0, new AddressBans());
    const [a, b] = await Promise.all([burst(api, 'shared-ip', 30), burst(worker, 'shared-ip', 30)]);
    expect(busiestWindow([...a, ...b], CEILING.windowMs)).toBeGreaterThan(CEILING.limit);
  });

  it('a request the exchange reads late keeps its part of the window: another process sends nothing until it has left the window, however long it took', async () => {
    const slow = processOn(ctx.deps.db);
    const other = processOn(second.db);
    // The whole window sent, and on its way for longer than the window (a slow network path, a busy exchange).
    const inFlight = await Promise.all(Array.from({ length: CEILING.limit }, () => slow.acquire({ exchange: 'bybit', egress: 'late-ip', write: undefined })));
    const granted: number[] = [];
    const others = Array.from({ length: 5 }, () => other.acquire({ exchange: 'bybit', egress: 'late-ip', write: undefined }).then((release) => (granted.push(Date.now()), release())));
    await new Promise((resolve) => setTimeout(resolve, 1.5 * CEILING.windowMs));
    // They reach the exchange now, and it counts them in its window from now on.
    const answeredAt = Date.now();
    for (const release of inFlight) release();
    await Promise.all(others);
    expect(Math.min(...granted)).toBeGreaterThanOrEqual(answeredAt + CEILING.windowMs);
  }, 20_000);

  it('a process alone on its address takes the whole window for a burst: one round trip when the burst starts, none per request', async () => {
    const long: Record<ExchangeId, ExchangeCeilings> = { ...ceilings, bybit: { ...ceilings.bybit, perIp: { limit: 600, windowMs: 60_000 }, maxInFlight: 600 } };
    let statements = 0;
    const counted = { execute: ((query: Parameters<typeof ctx.deps.db.execute>[0]) => (statements++, ctx.deps.db.execute(query))) as typeof ctx.deps.db.execute } as typeof ctx.deps.db;
    const alone = processOn(counted, undefined, long);
    alone.openAddress('bybit', 'alone-ip');
    // Idle, it holds a little headroom (5%): what the first requests of a burst need.
    await vi.waitFor(() => expect(partOf(alone, 'alone-ip')).toBe(30), { timeout: 10_000 });
    const before = statements;
    const started = Date.now();
    const granted = await burst(alone, 'alone-ip', 600);
    expect(granted).toHaveLength(600);
    expect(partOf(alone, 'alone-ip')).toBe(600);
    // The round the burst started, and the periodic rounds while it lasted (the token leases of 5559670 took 30 for 600 requests).
    expect(statements - before).toBeLessThanOrEqual(1 + Math.ceil((Math.max(...granted) - started) / ROUND_MS) + 1);
  });

  it("the window follows demand: an idle process keeps what it uses, a busy one on the address gets the rest, and two busy ones split it", async () => {
    const idle = processOn(ctx.deps.db);
    const busy = processOn(second.db);
    idle.openAddress('bybit', 'demand-ip');
    busy.openAddress('bybit', 'demand-ip');
    // Idle, each holds its headroom: 5% of the ceiling, at least one request.
    await vi.waitFor(() => expect([partOf(idle, 'demand-ip'), partOf(busy, 'demand-ip')]).toEqual([1, 1]), { timeout: 10_000 });
    const stop = new AbortController();
    const flatOut = (limiter: ExchangeRateLimiter) =>
      Promise.all(
        Array.from({ length: 40 }, async () => {
          while (!stop.signal.aborted) (await limiter.acquire({ exchange: 'bybit', egress: 'demand-ip', write: undefined }))();
        }),
      );
    const busyLoops = flatOut(busy);
    await vi.waitFor(() => expect([partOf(idle, 'demand-ip'), partOf(busy, 'demand-ip')]).toEqual([1, CEILING.limit - 1]), { timeout: 20_000 });
    const idleLoops = flatOut(idle);
    await vi.waitFor(() => expect([partOf(idle, 'demand-ip'), partOf(busy, 'demand-ip')]).toEqual([15, 15]), { timeout: 20_000 });
    stop.abort();
    await Promise.all([busyLoops, idleLoops]);
  }, 60_000);

  it('the part of a process that stopped reporting (it died) lapses after its time, and then goes to the others', async () => {
    const round = (holder: string, held: number, ttlMs: number) =>
      ctx.handle.pool.query<{ may_hold: number; fair_part: number }>(`select may_hold, fair_part from share_egress_window('bybit', 'lapse-ip', $1, 30, $2, 30, $3)`, [holder, held, ttlMs]);
    expect((await round('dead', 0, 300)).rows[0]).toEqual({ may_hold: 30, fair_part: 30 });
    expect((await round('dead', 30, 300)).rows[0]).toEqual({ may_hold: 30, fair_part: 30 });
    // While the dead one's part is counted, the newcomer's fair part is half, but nothing is free.
    expect((await round('alive', 0, 60_000)).rows[0]).toEqual({ may_hold: 0, fair_part: 15 });
    // The lapse is the database's decision (300 ms after the dead one's last round); the deadline only ends a failing wait.
    await vi.waitFor(async () => expect((await round('alive', 0, 60_000)).rows[0]).toEqual({ may_hold: 30, fair_part: 30 }), { timeout: 30_000 });
  });

  it('processes on different addresses do not share a budget: each takes its whole ceiling', async () => {
    const one = processOn(ctx.deps.db);
    const other = processOn(second.db);
    const [a, b] = await Promise.all([burst(one, 'address-a', CEILING.limit), burst(other, 'address-b', CEILING.limit)]);
    expect([a.length, b.length]).toEqual([CEILING.limit, CEILING.limit]);
    // Each took the whole ceiling of its own address for its burst.
    expect([partOf(one, 'address-a'), partOf(other, 'address-b')]).toEqual([CEILING.limit, CEILING.limit]);
  });

  it('a ban one process hears of holds the requests of every process on that address, and is audited by that process alone', async () => {
    // The ban must outlast the steps before the held request's deadline, however slow the machine.
    const BAN_MS = 5_000;
    const bansOf = () => new AddressBans({ bybit: BAN_MS, bitget: BAN_MS });
    const failures: unknown[] = [];
    const limiterOver = (db: DbHandle['db'], bans: AddressBans) => processOn(db, { bans, onError: (error) => failures.push(error) });
    const apiBans = bansOf();
    const workerBans = bansOf();
    const api = limiterOver(ctx.deps.db, apiBans);
    const worker = limiterOver(second.db, workerBans);
    const heard = { api: 0, worker: 0 };
    api.onAddressBan(() => (heard.api += 1));
    worker.onAddressBan(() => (heard.worker += 1));

    expect(api.reportAddressBan('bybit', 'banned-ip', 'HTTP 403')).toBe(true);
    await vi.waitFor(async () => {
      const rows = await ctx.handle.pool.query(`select reason from egress_bans where exchange = 'bybit' and egress = 'banned-ip' and until > now()`);
      expect(rows.rows).toEqual([{ reason: 'HTTP 403' }]);
    }, { timeout: 30_000 });
    // The worker never got a 403: it learns of the ban with its next round and sends nothing before it ends.
    worker.openAddress('bybit', 'banned-ip');
    await vi.waitFor(() => expect(workerBans.current('bybit', 'banned-ip')).toBeDefined(), { timeout: 30_000 });
    await expect(worker.acquire({ exchange: 'bybit', egress: 'banned-ip', write: undefined, deadline: Date.now() + 300 })).rejects.toThrow(/has banned requests from this server's address/);
    const until = workerBans.current('bybit', 'banned-ip')?.until;
    expect(until).toBeGreaterThan(Date.now());
    const release = await worker.acquire({ exchange: 'bybit', egress: 'banned-ip', write: undefined });
    expect(Date.now()).toBeGreaterThanOrEqual(until!);
    release();
    // Another address of the same processes was never held.
    (await worker.acquire({ exchange: 'bybit', egress: 'other-ip', write: undefined }))();
    expect(heard).toEqual({ api: 1, worker: 0 });
    expect(failures).toEqual([]);
  });

  it("new Bybit trade connections are counted per address across processes, and a restarted process finds its predecessor's", async () => {
    // Three new connections a minute per address; each process's own window would let it open three.
    // Each process's database tells when its token lease answers "none left": a connection held for the window.
    const refusals = { count: 0 };
    const watched = (db: DbHandle['db'], tally = refusals) =>
      ({
        execute: ((query: Parameters<typeof db.execute>[0]) =>
          db.execute(query).then((result) => {
            if ((result.rows[0] as { granted_now?: number } | undefined)?.granted_now === 0) tally.count += 1;
            return result;
          })) as typeof db.execute,
      }) as typeof db;
    const processA = new ConnectionBudget(3, 60_000);
    const processB = new ConnectionBudget(3, 60_000);
    processA.share(createPostgresEgressBudget(watched(ctx.deps.db)));
    processB.share(createPostgresEgressBudget(watched(second.db)));
    // (Connections are counted when opened: token leases, no window parts.)
    let opened = 0;
    const waiting = new AbortController();
    const open = async (budget: ConnectionBudget, signal: AbortSignal) => {
      expect(budget.take('conn-ip')).toBe(true);
      return budget.cleared('conn-ip', signal).then(
        () => ((opened += 1), 'opened'),
        () => 'held',
      );
    };
    const attempts = [open(processA, waiting.signal), open(processA, waiting.signal), open(processB, waiting.signal), open(processB, waiting.signal)];
    // Held means refused by the shared count, not slow: three opened and the fourth told to wait for the window.
    await vi.waitFor(() => expect([opened, refusals.count > 0]).toEqual([3, true]), { timeout: 30_000 });
    waiting.abort();
    expect((await Promise.all(attempts)).sort()).toEqual(['held', 'opened', 'opened', 'opened']);
    // A process started afresh on the address (its own window empty) is held too.
    const restarted = new ConnectionBudget(3, 60_000);
    const restartedRefusals = { count: 0 };
    restarted.share(createPostgresEgressBudget(watched(ctx.deps.db, restartedRefusals)));
    const afresh = new AbortController();
    const attempt = open(restarted, afresh.signal);
    await vi.waitFor(() => expect(restartedRefusals.count).toBeGreaterThan(0), { timeout: 30_000 });
    afresh.abort();
    expect(await attempt).toBe('held');
    expect(opened).toBe(3);
    // Another address has its own.
    expect(restarted.take('other-ip')).toBe(true);
    await restarted.cleared('other-ip');
  });
});
