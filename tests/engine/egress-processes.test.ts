import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import { AddressBans } from '../../server/trading/exchanges/address-ban';
import { createPostgresEgressBudget, type EgressBudget } from '../../server/trading/exchanges/egress-budget';
import { DEFAULT_CEILINGS, ExchangeRateLimiter, WINDOW_SLACK_MS } from '../../server/trading/exchanges/rate-limiter';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, goldStrategy, preparedGoldCustomers, waitFor, type TradingCustomer } from './fixtures';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EGRESS = 'one-address';
const WORKERS = 3;
/** Enough processes reading prices that their requests in flight can hold a whole window. */
const API_PROCESSES = 12;

/** A real `npm run worker` process (its own dispatcher, limiter and database pool) on the shared address. */
function startWorker(ctx: TestContext, sandbox: RunningSandbox): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      DATABASE_URL: ctx.database.url,
      MASTER_KEY: ctx.config.masterKey,
      DATA_DIR: ctx.config.dataDir,
      SANDBOX_URL: sandbox.url,
      EXCHANGE_MODE: 'sandbox',
      EXCHANGE_EGRESS: EGRESS,
      LOG_LEVEL: 'error',
      DISPATCH_LEASE_MS: '3000',
      POSITION_SYNC_INTERVAL_MS: '600000',
    },
  });
}

async function stopWorker(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGTERM');
  const timer = setTimeout(() => worker.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Requests the API processes below have sent and not yet had answered. */
interface ReadersInFlight {
  count: number;
}

/**
 * Another process on the address, through a limiter and budget of its own (an API server reading prices
 * flat out): as many Bybit requests as it is granted, as many at once as its limiter lets be in flight,
 * until `stop` aborts. Together they keep the address's budget the binding limit whatever this machine's speed.
 */
function readPricesFlatOut(db: TestContext['deps']['db'], sandbox: RunningSandbox, stop: AbortSignal, inFlight: ReadersInFlight): EgressBudget {
  const budget = createPostgresEgressBudget(db);
  const limiter = new ExchangeRateLimiter(DEFAULT_CEILINGS, WINDOW_SLACK_MS, new AddressBans(), budget);
  const loop = async () => {
    while (!stop.aborted) {
      const release = await limiter.acquire({ exchange: 'bybit', egress: EGRESS, write: undefined });
      inFlight.count += 1;
      await fetch(`${sandbox.url}/v5/market/tickers?category=linear&symbol=BTCUSDT`)
        .then((response) => response.arrayBuffer())
        .catch(() => undefined)
        .finally(() => {
          inFlight.count -= 1;
          release();
        });
    }
  };
  for (let i = 0; i < DEFAULT_CEILINGS.bybit.maxInFlight; i += 1) void loop();
  return budget;
}

/**
 * The exchange counts a request when it arrives. What is sent while the network is slow (`SLOW_MS` one
 * way) arrives that much later, together with what is sent at once after it: requests sent seconds apart,
 * each within the budget when it left, arrive inside one of the exchange's windows.
 */
const SLOW_MS = 10_000;
/** Requests in flight through the slow network before it is fast again: most of a window's worth. */
const DELAYED = 400;

/** The sandbox's own record of every source address: requests it refused for the per-address ceiling (Bybit 600 / 5 s, Bitget 6,000 / min), and bans. */
function addressVerdict(sandbox: RunningSandbox) {
  const counters = sandbox.control.counters();
  return { refusedByAddress: counters.rateLimitRejections.byIp, bans: counters.ipBans };
}

describe('processes sharing one outgoing address never exceed its per-address ceiling together', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
  });
  afterAll(async () => {
    await Promise.all(workers.map(stopWorker));
    await Promise.race([sandbox.close(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
    await ctx.close();
  });

  it('three worker processes and twelve API processes on one EXCHANGE_EGRESS close 190 positions (90 Bybit) while price reads sent through a slow network still arrive: the exchange never refuses the address, every position ends flat', async () => {
    const strategy = await goldStrategy(ctx);
    const customers: TradingCustomer[] = [...(await preparedGoldCustomers(ctx, sandbox, 'bybit', 90)), ...(await preparedGoldCustomers(ctx, sandbox, 'bitget', 100))];
    for (let i = 0; i < WORKERS; i += 1) workers.push(startWorker(ctx, sandbox));
    // Every worker holds its share of the accounts, so all three send.
    await waitFor(
      'three workers sharing the account slices',
      async () => {
        const owners = await ctx.deps.db.execute<{ owner: string; n: number }>(sql`select owner, count(*)::int as n from account_slices where owner is not null group by owner`);
        return owners.rows.length === WORKERS && owners.rows.every((row) => row.n <= Math.ceil(64 / WORKERS));
      },
      60_000,
    );

    const opened = await ctx.api('POST', strategy.url, { payload: '{"action":"open","alert_id":"open-190"}', headers: { 'content-type': 'application/json' } });
    expect(opened.body.data.executions).toBe(190);
    const orderId = opened.body.data.orderId as number;
    /** Once none of the order's executions is `undone` (a light count: this process is the exchange too), or as soon as the exchange refused the address. */
    const settledOrRefused = (undone: SQL) => async () => {
      const left = await ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from executions where order_id = ${orderId} and (${undone})`);
      const verdict = addressVerdict(sandbox);
      return left.rows[0]!.n === 0 || Object.keys(verdict.refusedByAddress).length > 0 ? verdict : undefined;
    };
    const afterOpen = await waitFor(
      'every entry placed and protected, or the address refused',
      settledOrRefused(sql`state = 'pending' or (state = 'open' and (protected_at is null or claimed_by is not null))`),
      120_000,
    );
    expect(afterOpen).toEqual({ refusedByAddress: {}, bans: {} });
    expect((await executionsOf(ctx, orderId)).map((row) => row.state)).toEqual(customers.map(() => 'open'));

    const stopReading = new AbortController();
    const readers: ReadersInFlight = { count: 0 };
    sandbox.control.setLatency(SLOW_MS);
    const apiBudgets = Array.from({ length: API_PROCESSES }, () => readPricesFlatOut(ctx.deps.db, sandbox, stopReading.signal, readers));
    try {
      // Most of a window's worth of price reads on their way through the slow network; then it is fast again.
      await waitFor('the price reads on their way', async () => readers.count >= DELAYED, 60_000);
      sandbox.control.setLatency(0);
      const closed = await ctx.api('POST', strategy.url, { payload: '{"action":"close","alert_id":"close-190"}', headers: { 'content-type': 'application/json' } });
      expect(closed.body.data.closing).toBe(190);
      const afterClose = await waitFor('every position closed, or the address refused', settledOrRefused(sql`state <> 'closed'`), 180_000);
      expect(afterClose).toEqual({ refusedByAddress: {}, bans: {} });
      expect((await executionsOf(ctx, orderId)).map((row) => row.state)).toEqual(customers.map(() => 'closed'));
    } finally {
      stopReading.abort();
      await Promise.all(apiBudgets.map((budget) => budget.stop?.()));
    }
    // Flat on the exchange itself, not only in our rows.
    const stillOpen = customers.filter((customer) => sandbox.control.account(customer.sandbox!.uid).positions.some((p) => p.size > 0));
    expect(stillOpen).toEqual([]);
  }, 420_000);
});
