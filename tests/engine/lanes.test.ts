import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../server/sandbox/index';
import { engineSuite, executionsOf, goldStrategy, preparedGoldCustomers, queueManualLong, startEngine, startEngineWithQueuedBybit, type TradingCustomer, waitFor } from './fixtures';

const BYBIT_LATENCY_MS = 250;

/** Bybit's order reads (the fill read before a position's take-profit) answer after `latencyMs`. */
function slowOrderReads(sandbox: RunningSandbox, latencyMs: number): void {
  sandbox.control.setFaults([
    { exchange: 'bybit', route: '/v5/order/realtime', latencyMs },
    { exchange: 'bybit', route: '/v5/order/history', latencyMs },
  ]);
}
const SLOTS = 2;

/**
 * One alert to customers of both exchanges. Bybit's entries wait for Bybit's budget (here one request
 * in flight, each slow); they must not hold the slots the Bitget entries need.
 */
describe('each exchange has its own dispatcher slots', () => {
  const engine = engineSuite((ctx, sandbox) => startEngineWithQueuedBybit(ctx, sandbox, { concurrency: SLOTS }));

  it('Bitget entries go out while Bybit entries wait for Bybit', async () => {
    const { ctx, sandbox } = engine;
    const strategy = await goldStrategy(ctx);
    const bybit = await preparedGoldCustomers(ctx, sandbox, 'bybit', 6);
    const bitget = await preparedGoldCustomers(ctx, sandbox, 'bitget', 2);
    sandbox.control.setFaults([{ exchange: 'bybit', latencyMs: BYBIT_LATENCY_MS }]);
    const { orderId } = await queueManualLong(ctx, strategy.id, 60_000);
    await waitFor('every entry open', async () => ((await executionsOf(ctx, orderId)).every((row) => row.state === 'open') ? true : undefined), 40_000);
    sandbox.control.setFaults([]);
    const entryTimes = (customers: TradingCustomer[]) =>
      customers.flatMap((c) => sandbox.control.account(c.sandbox!.uid).orders.filter((o) => o.clientOrderId.endsWith('-e')).map((o) => o.createdAt)).sort((a, b) => a - b);
    const bybitTimes = entryTimes(bybit);
    const bitgetTimes = entryTimes(bitget);
    expect(bybitTimes).toHaveLength(6);
    expect(bitgetTimes).toHaveLength(2);
    // The Bybit entries arrive one after the other; the Bitget ones did not queue behind them.
    expect(Math.max(...bitgetTimes)).toBeLessThan(bybitTimes[2]!);
  });
});

/**
 * One dispatcher place: each entry's fill is read back slowly (the protection that follows its entry),
 * yet the next customers' entries must not wait for it: a placed entry gives its place up.
 */
describe('a placed entry gives its dispatcher place to the next entry', () => {
  const engine = engineSuite((ctx, sandbox) => startEngine(ctx, sandbox, { concurrency: 1 }));

  it('entries go out while earlier positions wait for their fill reads', async () => {
    const { ctx, sandbox } = engine;
    const strategy = await goldStrategy(ctx);
    const customers = await preparedGoldCustomers(ctx, sandbox, 'bybit', 3);
    // Reading an order back (the fill, before the position's take-profit) takes 1.5 s.
    slowOrderReads(sandbox, 1_500);
    const started = Date.now();
    const { orderId } = await queueManualLong(ctx, strategy.id, 60_000);
    engine.dispatcher.wake();
    const entryTimes = () =>
      customers.flatMap((c) => sandbox.control.account(c.sandbox!.uid).orders.filter((o) => o.clientOrderId === `ct${orderId}-${c.customerId}-e`).map((o) => o.createdAt));
    await waitFor('three entries at the exchange', async () => entryTimes().length === 3, 20_000);
    // Held by the fill reads, the third entry would come after two of them (3 s).
    expect(Math.max(...entryTimes()) - started).toBeLessThan(1_400);
    await waitFor('every position protected', async () => ((await executionsOf(ctx, orderId)).every((row) => row.state === 'open' && row.protected_at !== null) ? true : undefined), 30_000);
    sandbox.control.setFaults([]);
  });
});

/**
 * Every placed entry frees its place. Where the last claim found the queue's due work all taken, a
 * freed place must not send another claim: in a fan-out, thousands of them would each query a queue
 * known to hold nothing due, beside the entries' own statements.
 */
describe('a freed place claims again only where work may be waiting', () => {
  const engine = engineSuite((ctx, sandbox) => startEngine(ctx, sandbox));

  it('entries placed one after the other send no claim of their own', async () => {
    const { ctx, sandbox } = engine;
    const strategy = await goldStrategy(ctx);
    const customers = await preparedGoldCustomers(ctx, sandbox, 'bybit', 12);
    // The fill reads wait, so the executions stay in flight (and release nothing) while their entries are placed.
    slowOrderReads(sandbox, 3_000);
    const claims = countClaims(ctx.handle.pool);
    try {
      const { orderId } = await queueManualLong(ctx, strategy.id, 60_000);
      engine.dispatcher.wake();
      const entries = () => customers.filter((c) => sandbox.control.account(c.sandbox!.uid).orders.some((o) => o.clientOrderId === `ct${orderId}-${c.customerId}-e`)).length;
      await waitFor('the first entry at the exchange', async () => entries() > 0, 20_000);
      const claimsAtFirstEntry = claims.count();
      await waitFor('every entry at the exchange', async () => entries() === customers.length, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Twelve places freed, none of them claiming (it was a claim of work and one of sync jobs per freeing turn).
      expect(claims.count() - claimsAtFirstEntry).toBeLessThanOrEqual(1);
    } finally {
      claims.restore();
      sandbox.control.setFaults([]);
    }
  });
});

/**
 * An execution that ends (its position protected, its claim back in the queue until its next sync)
 * frees its place too: where no work waits, it times the next wake-up instead of claiming.
 */
describe('an ended execution times the next claim instead of claiming', () => {
  const engine = engineSuite((ctx, sandbox) => startEngine(ctx, sandbox, { safetyPollMs: 60_000 }));

  it('twelve positions protected, twelve executions ended: no claim of their own', async () => {
    const { ctx, sandbox } = engine;
    const strategy = await goldStrategy(ctx);
    await preparedGoldCustomers(ctx, sandbox, 'bybit', 12);
    const claims = countClaims(ctx.handle.pool);
    try {
      const { orderId } = await queueManualLong(ctx, strategy.id, 60_000);
      engine.dispatcher.wake();
      await waitFor('the executions claimed', async () => (engine.dispatcher.inFlight() > 0 ? true : undefined), 20_000);
      const claimsAtStart = claims.count();
      await waitFor('every position protected, every execution ended', async () =>
        (await executionsOf(ctx, orderId)).every((row) => row.protected_at !== null) && engine.dispatcher.inFlight() === 0 ? true : undefined, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Each execution that ended used to send a claim of work and one of sync jobs (9 claims in all).
      expect(claims.count() - claimsAtStart).toBeLessThanOrEqual(1);
    } finally {
      claims.restore();
    }
  });
});

/** Counts the claim statements (FOR UPDATE SKIP LOCKED) sent through `pool` until restored. */
function countClaims(pool: pg.Pool): { count: () => number; restore: () => void } {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  let claims = 0;
  pool.query = ((...args: unknown[]) => {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    if (text.includes('for update skip locked')) claims += 1;
    return query(...args);
  }) as typeof pool.query;
  return { count: () => claims, restore: () => void (pool.query = query as typeof pool.query) };
}
