import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EGRESS } from '../../server/config';
import type { TestContext } from '../helpers/test-app';
import {
  engineSuite,
  executionsOf,
  fetchGate,
  goldStrategy,
  preparedGoldCustomers,
  queuedBybitLimiter,
  queueManualLong,
  startEngine,
  startEngineWithQueuedBybit,
  type TradingCustomer,
  waitFor,
} from './fixtures';

/** Bybit's order reads: the fill read back before a position's take-profit. */
const isOrderRead = (url: string) => /\/v5\/order\/(realtime|history)\b/.test(url);
const SLOTS = 2;

/**
 * One alert to customers of both exchanges. Bybit's entries wait for Bybit's budget (here its one
 * request in flight, held by the test); they must not hold the slots the Bitget entries need.
 */
describe('each exchange has its own dispatcher slots', () => {
  const limiter = queuedBybitLimiter();
  const engine = engineSuite((ctx, sandbox) => startEngineWithQueuedBybit(ctx, sandbox, { concurrency: SLOTS }, limiter));

  it('Bitget entries go out while Bybit entries wait for Bybit', async () => {
    const { ctx, sandbox } = engine;
    const strategy = await goldStrategy(ctx);
    const bybit = await preparedGoldCustomers(ctx, sandbox, 'bybit', 6);
    const bitget = await preparedGoldCustomers(ctx, sandbox, 'bitget', 2);
    const entries = (customers: TradingCustomer[]) => customers.flatMap((c) => sandbox.control.account(c.sandbox!.uid).orders.filter((o) => o.clientOrderId.endsWith('-e')));
    // Bybit's one request place is the test's until it gives it back: every Bybit entry waits for it, holding its slot.
    const giveBybitBack = await limiter.acquire({ exchange: 'bybit', egress: DEFAULT_EGRESS, write: undefined });
    let orderId: number;
    try {
      ({ orderId } = await queueManualLong(ctx, strategy.id, 60_000));
      await waitFor('both Bitget entries at the exchange', async () => entries(bitget).length === 2, 30_000);
      expect(entries(bybit)).toEqual([]);
    } finally {
      giveBybitBack();
    }
    await waitFor('every entry open', async () => ((await executionsOf(ctx, orderId)).every((row) => row.state === 'open') ? true : undefined), 40_000);
    expect(entries(bybit)).toHaveLength(6);
    expect(entries(bitget)).toHaveLength(2);
  });
});

/**
 * One dispatcher place: each entry's fill read (the protection that follows its entry) is held until
 * the three entries are at the exchange; the next customers' entries must not wait for it: a placed
 * entry gives its place up.
 */
describe('a placed entry gives its dispatcher place to the next entry', () => {
  const reads = fetchGate(isOrderRead);
  // Held reads outlast no timeout: with the place kept by the first execution, the others would wait 60 s.
  const engine = engineSuite((ctx, sandbox) => startEngine(ctx, sandbox, { concurrency: 1 }, 60_000, { fetchImplementation: reads.fetch }));

  it('entries go out while earlier positions wait for their fill reads', async () => {
    const { ctx, sandbox } = engine;
    const strategy = await goldStrategy(ctx);
    const customers = await preparedGoldCustomers(ctx, sandbox, 'bybit', 3);
    // Silent private streams: the fills are known only from the held reads.
    sandbox.control.setStreamFaults([{ stall: true }]);
    const { orderId } = await queueManualLong(ctx, strategy.id, 60_000);
    engine.dispatcher.wake();
    const entryCount = () => customers.filter((c) => sandbox.control.account(c.sandbox!.uid).orders.some((o) => o.clientOrderId === `ct${orderId}-${c.customerId}-e`)).length;
    await waitFor('three entries at the exchange', async () => entryCount() === 3, 30_000);
    // No position has its fill read back yet: the entries did not wait for their predecessors' protection.
    expect((await executionsOf(ctx, orderId)).map((row) => row.protected_at)).toEqual([null, null, null]);
    expect(reads.held()).toBeGreaterThan(0);
    sandbox.control.clearStreamFaults();
    reads.open();
    await waitFor('every position protected', async () => ((await executionsOf(ctx, orderId)).every((row) => row.state === 'open' && row.protected_at !== null) ? true : undefined), 30_000);
  });
});

/**
 * Every placed entry frees its place. Where the last claim found the queue's due work all taken, a
 * freed place must not send another claim: in a fan-out, thousands of them would each query a queue
 * known to hold nothing due, beside the entries' own statements.
 *
 * Nothing else may claim meanwhile: the alert is handed to the dispatcher in its own statement (no
 * NOTIFY, no claim), and the safety poll and the leases (whose expiry times a wake-up) are far longer
 * than the test. Every claim statement sent after the dispatcher's first pass is then one a freed place sent.
 */
const QUIET = { safetyPollMs: 600_000, leaseMs: 600_000 };

describe('a freed place claims again only where work may be waiting', () => {
  let claims: ClaimRecorder;
  const reads = fetchGate(isOrderRead);
  const engine = engineSuite((ctx, sandbox) => {
    claims = recordClaims(ctx.handle.pool);
    return startEngine(ctx, sandbox, QUIET, 60_000, { fetchImplementation: reads.fetch });
  });

  it('entries placed one after the other send no claim of their own', async () => {
    const { ctx, sandbox } = engine;
    const strategy = await goldStrategy(ctx);
    const customers = await preparedGoldCustomers(ctx, sandbox, 'bybit', 12);
    await claims.firstPassOver();
    const before = claims.sent();
    // The fill reads are held and the private streams silent, so the executions stay in flight (and release
    // nothing) while their entries are placed.
    sandbox.control.setStreamFaults([{ stall: true }]);
    const orderId = await handedOverAlert(ctx, strategy.url);
    const entries = () => customers.filter((c) => sandbox.control.account(c.sandbox!.uid).orders.some((o) => o.clientOrderId === `ct${orderId}-${c.customerId}-e`)).length;
    await waitFor('every entry at the exchange', async () => entries() === customers.length, 30_000);
    expect(engine.dispatcher.inFlight()).toBe(customers.length);
    sandbox.control.clearStreamFaults();
    reads.open();
    await waitFor('every position protected, every execution ended', async () =>
      (await executionsOf(ctx, orderId)).every((row) => row.protected_at !== null) && engine.dispatcher.inFlight() === 0 ? true : undefined, 30_000);
    // Twelve places freed by their entries (and twelve by their ends), none of them claiming (it was a claim of work and one of sync jobs per freeing turn).
    expect(claims.sent() - before).toBe(0);
  });
});

/**
 * An execution that ends (its position protected, its claim back in the queue until its next sync)
 * frees its place too: where no work waits, it times the next wake-up instead of claiming.
 */
describe('an ended execution times the next claim instead of claiming', () => {
  let claims: ClaimRecorder;
  const engine = engineSuite((ctx, sandbox) => {
    claims = recordClaims(ctx.handle.pool);
    return startEngine(ctx, sandbox, QUIET);
  });

  it('twelve positions protected, twelve executions ended: no claim of their own', async () => {
    const { ctx, sandbox } = engine;
    const strategy = await goldStrategy(ctx);
    await preparedGoldCustomers(ctx, sandbox, 'bybit', 12);
    await claims.firstPassOver();
    const before = claims.sent();
    const orderId = await handedOverAlert(ctx, strategy.url);
    await waitFor('every position protected, every execution ended', async () =>
      (await executionsOf(ctx, orderId)).every((row) => row.protected_at !== null) && engine.dispatcher.inFlight() === 0 ? true : undefined, 30_000);
    // Each execution that ended used to send a claim of work and one of sync jobs.
    expect(claims.sent() - before).toBe(0);
  });
});

/** Sends the strategy's alert through its webhook: the statement claims the executions for this process's dispatcher. */
async function handedOverAlert(ctx: TestContext, url: string): Promise<number> {
  const answer = await ctx.api('POST', url, { payload: '{"action":"open"}', headers: { 'content-type': 'application/json' } });
  expect(answer.status).toBe(200);
  const orderId = answer.body.data.orderId as number;
  const rows = await executionsOf(ctx, orderId);
  expect(rows.length).toBe(12);
  expect(rows.every((row) => row.claimed_by !== null)).toBe(true);
  return orderId;
}

interface ClaimRecorder {
  /** Claim statements (FOR UPDATE SKIP LOCKED on the executions) sent so far. */
  sent(): number;
  /**
   * Resolves once the dispatcher's first pass over the queue (the one its start runs) is over: every
   * pass ends with its claim of sync jobs, so the first such claim answered ends it.
   */
  firstPassOver(): Promise<void>;
}

/** Records the claim statements sent through `pool` (installed before the dispatcher starts). */
function recordClaims(pool: pg.Pool): ClaimRecorder {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  let sent = 0;
  let passOver: () => void = () => undefined;
  const firstPass = new Promise<void>((resolve) => (passOver = resolve));
  pool.query = ((...args: unknown[]) => {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const result = query(...args);
    if (text.includes('update executions x') && text.includes('for update skip locked')) {
      sent += 1;
      if (text.includes('e.protected_at is not null')) void (result as Promise<unknown>).then(passOver, passOver);
    }
    return result;
  }) as typeof pool.query;
  return { sent: () => sent, firstPassOver: () => firstPass };
}
