import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../server/db/client';
import { startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import { AddressBans } from '../../server/trading/exchanges/address-ban';
import { createPostgresEgressBudget } from '../../server/trading/exchanges/egress-budget';
import { DEFAULT_CEILINGS, ExchangeRateLimiter, WINDOW_SLACK_MS } from '../../server/trading/exchanges/rate-limiter';
import { createTestContext, type TestContext } from '../helpers/test-app';

const EGRESS = 'banned-address';
/** How long we believe a ban lasts (Bybit says "at least 10 minutes"); the exchange's own is longer here (and longer than its window, which still holds the overrun when it ends). */
const OUR_BAN_MS = 1_500;
const EXCHANGE_BAN_MS = 6_000;
const BACKLOG = 200;
const PROCESSES = 3;

/**
 * One process on the address: its own limiter, bans and database connections, sharing the address's
 * budget and bans. Its requests are public Bybit reads; a 403 is reported as the adapters do
 * (ccxt's `onRestResponse`).
 */
function processOn(db: DbHandle['db'], sandbox: RunningSandbox) {
  const bans = new AddressBans({ bybit: OUR_BAN_MS, bitget: OUR_BAN_MS });
  const budget = createPostgresEgressBudget(db, { bans, onError: () => undefined });
  const limiter = new ExchangeRateLimiter(DEFAULT_CEILINGS, WINDOW_SLACK_MS, bans, budget);
  const answers: number[] = [];
  const request = async () => {
    const release = await limiter.acquire({ exchange: 'bybit', egress: EGRESS, write: undefined });
    try {
      const response = await fetch(`${sandbox.url}/v5/market/tickers?category=linear&symbol=BTCUSDT`);
      await response.arrayBuffer();
      if (response.status === 403) limiter.reportAddressBan('bybit', EGRESS, 'HTTP 403');
      answers.push(response.status);
    } finally {
      release();
    }
  };
  return { limiter, budget, answers, request };
}

describe('after an address ban, traffic resumes at a pace that cannot set off another', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  const handles: DbHandle[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startSandbox({ randomWalk: false, ipBanMs: EXCHANGE_BAN_MS });
  });
  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close()));
    await sandbox.close();
    await ctx.close();
  });

  it('three processes with a backlog each: while the exchange still bans the address one request per process tests it, then the backlog goes without a second ban', async () => {
    const processes = Array.from({ length: PROCESSES }, (_, i) => {
      const handle = createDb(ctx.database.url, { max: 2, applicationName: `process-${i}` });
      handles.push(handle);
      return processOn(handle.db, sandbox);
    });
    // Something overran the address: the exchange bans it (600 requests / 5 s, then 403 for EXCHANGE_BAN_MS).
    const overrun = await Promise.all(Array.from({ length: 601 }, () => fetch(`${sandbox.url}/v5/market/tickers?category=linear&symbol=BTCUSDT`).then((r) => r.status)));
    expect(overrun.filter((status) => status === 403)).toHaveLength(1);
    const refusedBefore = sandbox.control.counters().rateLimitRejections.byIp['127.0.0.1'] ?? 0;

    // The first process hears of it with a 403; the others from the database; every one has a backlog.
    await processes[0]!.request();
    expect(processes[0]!.answers).toEqual([403]);
    await Promise.all(processes.map((p) => Promise.all(Array.from({ length: BACKLOG }, () => p.request()))));

    const refused = (sandbox.control.counters().rateLimitRejections.byIp['127.0.0.1'] ?? 0) - refusedBefore;
    // Each of our bans ends with one request per process, which finds the exchange's ban still on and starts
    // another of ours: a refusal per process and ban of ours, never a backlog.
    const bansOfOurs = Math.ceil(EXCHANGE_BAN_MS / OUR_BAN_MS) + 1;
    expect(refused).toBeLessThanOrEqual(1 + PROCESSES * bansOfOurs);
    // Once a request got through, every one did: the backlog left at the windows' pace, no second ban.
    for (const p of processes) {
      const firstOk = p.answers.indexOf(200);
      expect(p.answers.slice(firstOk)).toEqual(p.answers.slice(firstOk).map(() => 200));
    }
    expect(sandbox.control.counters().ipBans).toEqual({});
    await Promise.all(processes.map((p) => p.budget.stop?.()));
  }, 60_000);
});
