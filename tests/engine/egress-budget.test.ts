import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CEILINGS, ExchangeRateLimiter, type ExchangeCeilings } from '../../server/trading/exchanges/rate-limiter';
import { AddressBans } from '../../server/trading/exchanges/address-ban';
import { createPostgresEgressBudget } from '../../server/trading/exchanges/egress-budget';
import { ConnectionBudget } from '../../server/trading/exchanges/bybit-ws/connection-budget';
import type { ExchangeId } from '../../server/trading/exchanges/types';
import { createDb, type DbHandle } from '../../server/db/client';
import { AmountType, CustomerGroup } from '../../contract/enums';
import { findWebhookStrategy, receiveAlert } from '../../server/trading/intake';
import type { GrantedLeases } from '../../server/trading/intake-state';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { insertStrategy, tradingCustomer } from './fixtures';

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

describe('one budget per exchange and egress address, shared by every process on it', () => {
  let ctx: TestContext;
  let second: DbHandle;
  beforeAll(async () => {
    ctx = await createTestContext();
    second = createDb(ctx.database.url, { max: 2, applicationName: 'second-process' });
  });
  afterAll(async () => {
    await second.close();
    await ctx.close();
  });

  it('two limiters (two processes, their own database connections) on one address stay under the ceiling together', async () => {
    const api = new ExchangeRateLimiter(ceilings, 0, new AddressBans(), createPostgresEgressBudget(ctx.deps.db));
    const worker = new ExchangeRateLimiter(ceilings, 0, new AddressBans(), createPostgresEgressBudget(second.db));
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

  it("an alert's requests announced ahead are leased at once: the first of them takes its token without a round trip of its own", async () => {
    // A long window (six-minute slots, counted from the clock's whole slots), so the leased tokens do not lapse while the test spends them.
    const slow: Record<ExchangeId, ExchangeCeilings> = { ...ceilings, bybit: { ...ceilings.bybit, perIp: { limit: 600, windowMs: 3_600_000 } } };
    let leases = 0;
    let leased = 0;
    const counted = {
      execute: (async (query: Parameters<typeof ctx.deps.db.execute>[0]) => {
        leases += 1;
        const result = await ctx.deps.db.execute(query);
        leased += 1;
        return result;
      }) as typeof ctx.deps.db.execute,
    } as typeof ctx.deps.db;
    const limiter = new ExchangeRateLimiter(slow, 0, new AddressBans(), createPostgresEgressBudget(counted));
    limiter.prepare('bybit', 'announced-ip', 3);
    expect(leases).toBe(1);
    limiter.prepare('bybit', 'announced-ip', 3);
    expect(leases).toBe(1);
    await vi.waitFor(() => expect(leased).toBe(1), { timeout: 30_000 });
    limiter.prepare('bybit', 'announced-ip', 2);
    await burst(limiter, 'announced-ip', 3);
    expect(leases).toBe(1);
    await burst(limiter, 'announced-ip', 1);
    expect(leases).toBe(2);
  });

  it('processes on different addresses do not share a budget', async () => {
    // 30 requests per ten minutes: were the addresses to share it, 20 of these 50 would wait minutes (past the test's deadline).
    const slowCeilings: Record<ExchangeId, ExchangeCeilings> = { ...ceilings, bybit: { ...ceilings.bybit, perIp: { limit: CEILING.limit, windowMs: 600_000 } } };
    const one = new ExchangeRateLimiter(slowCeilings, 0, new AddressBans(), createPostgresEgressBudget(ctx.deps.db));
    const other = new ExchangeRateLimiter(slowCeilings, 0, new AddressBans(), createPostgresEgressBudget(second.db));
    const [a, b] = await Promise.all([burst(one, 'address-a', 25), burst(other, 'address-b', 25)]);
    expect([a.length, b.length]).toEqual([25, 25]);
    // Each address counted its own requests.
    const counted = await ctx.handle.pool.query(`select egress, sum(granted)::int as granted from egress_budget_slots where exchange = 'bybit' and egress in ('address-a', 'address-b') group by egress order by egress`);
    expect(counted.rows).toEqual([{ egress: 'address-a', granted: 25 }, { egress: 'address-b', granted: 25 }]);
  });

  it('a ban one process hears of holds the requests of every process on that address, and is audited by that process alone', async () => {
    // The ban must outlast the steps before the held request's deadline, however slow the machine.
    const BAN_MS = 5_000;
    const bansOf = () => new AddressBans({ bybit: BAN_MS, bitget: BAN_MS });
    const failures: unknown[] = [];
    const limiterOver = (db: DbHandle['db'], bans: AddressBans) => new ExchangeRateLimiter(ceilings, 0, bans, createPostgresEgressBudget(db, { bans, onError: (error) => failures.push(error) }));
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
    // The worker never got a 403: it learns of the ban with its lease and sends nothing before it ends.
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

  it("an alert's statement leases the budget for the entries it hands to this process: they come with their requests, and the limiter sends them without a lease of its own", async () => {
    const budget = createPostgresEgressBudget(ctx.deps.db);
    const limiter = new ExchangeRateLimiter(ceilings, 0, new AddressBans(), budget);
    const terms = limiter.leaseTerms('bybit')!;
    expect(terms).toMatchObject({ limit: CEILING.limit, windowMs: CEILING.windowMs });
    const handed: GrantedLeases[] = [];
    const detach = ctx.deps.intake.handoff.attach({
      worker: 'budget-runner',
      leaseMs: 15_000,
      freeSlots: () => 10,
      slices: () => null,
      budgetLeases: () => ({ bybit: { ...terms, egress: 'alert-ip' } }),
      prepare: () => undefined,
      contextsInStatement: 500,
      adopt: (_claimed, leases) => void handed.push(leases ?? {}),
    });
    const groups = [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }];
    const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups });
    for (let i = 0; i < 3; i += 1) await tradingCustomer(ctx, null, { exchange: 'bybit', group: CustomerGroup.Gold });
    try {
      const found = await findWebhookStrategy(ctx.deps, strategy.token);
      await receiveAlert(ctx.deps, { strategy: found!, alert: { action: 'open', alertId: 'budget', timestamp: null, price: null }, body: '{}', sourceIp: '127.0.0.1' });
    } finally {
      detach();
    }
    expect(handed).toHaveLength(1);
    expect(handed[0]).toEqual({ bybit: { granted: 3, msLeft: expect.any(Number) } });
    const lease = handed[0]!.bybit!;
    expect(lease.msLeft).toBeGreaterThan(0);
    expect(lease.msLeft).toBeLessThanOrEqual(CEILING.windowMs / terms.slots);
    const slots = await ctx.handle.pool.query(`select sum(granted)::int as granted from egress_budget_slots where exchange = 'bybit' and egress = 'alert-ip'`);
    expect(slots.rows[0].granted).toBe(3);

    // Credited to this process: three requests leave on them, the fourth leases.
    let leases = 0;
    const count = () => void (leases += 1);
    limiter.credit('bybit', 'alert-ip', lease.granted, CEILING.windowMs);
    ctx.handle.pool.on('acquire', count);
    try {
      for (let i = 0; i < 3; i += 1) (await limiter.acquire({ exchange: 'bybit', egress: 'alert-ip', write: undefined }))();
      expect(leases).toBe(0);
      (await limiter.acquire({ exchange: 'bybit', egress: 'alert-ip', write: undefined }))();
      expect(leases).toBe(1);
    } finally {
      ctx.handle.pool.off('acquire', count);
    }
  });

  it("new Bybit trade connections are counted per address across processes, and a restarted process finds its predecessor's", async () => {
    // Three new connections a minute per address; each process's own window would let it open three.
    const processA = new ConnectionBudget(3, 60_000);
    const processB = new ConnectionBudget(3, 60_000);
    processA.share(createPostgresEgressBudget(ctx.deps.db));
    processB.share(createPostgresEgressBudget(second.db));
    const open = async (budget: ConnectionBudget) => {
      expect(budget.take('conn-ip')).toBe(true);
      // A generous wait for an opening (one database round trip); a held one waits it out.
      const aborted = AbortSignal.timeout(3_000);
      return budget.cleared('conn-ip', aborted).then(
        () => 'opened',
        () => 'held',
      );
    };
    const outcomes = await Promise.all([open(processA), open(processA), open(processB), open(processB)]);
    expect(outcomes.sort()).toEqual(['held', 'opened', 'opened', 'opened']);
    // A process started afresh on the address (its own window empty) is held too.
    const restarted = new ConnectionBudget(3, 60_000);
    restarted.share(createPostgresEgressBudget(ctx.deps.db));
    expect(await open(restarted)).toBe('held');
    // Another address has its own.
    expect(restarted.take('other-ip')).toBe(true);
    await restarted.cleared('other-ip');
  });
});
