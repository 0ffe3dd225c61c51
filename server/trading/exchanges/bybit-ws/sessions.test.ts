import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index';
import { sandboxAccount } from '../test-support';
import type { Credentials } from '../types';
import { ConnectionBudget, NEW_CONNECTION_CEILING } from './connection-budget';
import { ExchangeClock } from './exchange-clock';
import { BybitTradeSessions } from './sessions';

let sandbox: RunningSandbox;
const managers: BybitTradeSessions[] = [];

const IDLE_CUT_MS = 2_000;

function sessions(budget: ConnectionBudget, extra: Partial<ConstructorParameters<typeof BybitTradeSessions>[0]> = {}): BybitTradeSessions {
  const manager = new BybitTradeSessions({ url: sandbox.tradeSocketUrl, egress: 'test', budget, backoff: { minMs: 50, maxMs: 200 }, pingIntervalMs: 100, ...extra });
  managers.push(manager);
  return manager;
}

/** Waits for a condition; the deadline is generous (a loaded machine), the condition ends the wait. */
const until = async (ready: () => boolean, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const accounts = (count: number): Credentials[] => Array.from({ length: count }, () => sandboxAccount(sandbox, 'bybit'));

beforeAll(async () => {
  // Twenty pings (every 100 ms) to an idle cut: a loaded machine's stall of the event loop (client and sandbox share it) must outlast 2 s to cut a pinged session.
  sandbox = await startSandbox({ randomWalk: false, tradeIdleMs: IDLE_CUT_MS });
});
afterAll(async () => sandbox.close());
beforeEach(() => sandbox.control.reset());
afterEach(() => {
  for (const manager of managers.splice(0)) manager.close();
});

describe('the per-address new-connection budget', () => {
  it('plans 95% of Bybit 500 per 5 minutes, as a sliding window', () => {
    expect(new ConnectionBudget()).toMatchObject({ limit: 475, windowMs: 300_050 });
    expect(NEW_CONNECTION_CEILING).toEqual({ limit: 500, windowMs: 300_000 });
    let now = 1_000_000;
    const budget = new ConnectionBudget(3, 1000, () => now);
    expect([budget.take('a'), budget.take('a'), budget.take('b'), budget.take('a')]).toEqual([true, true, true, true]);
    expect(budget.take('a')).toBe(false);
    expect(budget.waitMs('a')).toBe(1000);
    expect(budget.left('b')).toBe(2);
    now += 999;
    expect(budget.waitMs('a')).toBe(1);
    now += 1;
    // the three taken at the same instant leave the window together
    expect([budget.take('a'), budget.take('a'), budget.take('a'), budget.take('a')]).toEqual([true, true, true, false]);
  });
});

describe('Bybit trade sessions', () => {
  it("feed the order entry's clock the exchange's time from their pongs", async () => {
    const clock = new ExchangeClock();
    // What the sessions tell the clock: each frame's stamp and when it was read.
    const heard: Array<{ stamp: unknown; readAt: number }> = [];
    const learn = clock.heard.bind(clock);
    clock.heard = (stamp, readAt) => {
      heard.push({ stamp, readAt });
      return learn(stamp, readAt);
    };
    const manager = sessions(new ConnectionBudget(), { clock });
    await manager.warm(accounts(1));
    // Pings go every 100 ms here: wait for two pongs, stamped by the sandbox (whose clock is Date.now()).
    await until(() => heard.length >= 2);
    expect(heard.every(({ stamp }) => typeof stamp === 'string' && Math.abs(Number(stamp) - Date.now()) < 60_000)).toBe(true);
    // An answer stamped now and read 300 ms late is placed by the pongs' bound: at most its stamp + 1 ms - bound.
    const stamp = Date.now();
    const readAt = performance.now() + 300;
    const bound = Math.max(...heard.map((frame) => Number(frame.stamp) - frame.readAt), stamp - readAt);
    expect(clock.answeredAt(String(stamp), readAt)).toBe(Math.min(readAt, stamp + 1 - bound));
    expect(new ExchangeClock().answeredAt(String(stamp), readAt)).toBe(readAt);
  });

  it('warming more accounts than the budget allows opens what it may and the rest as the budget frees', async () => {
    const manager = sessions(new ConnectionBudget(2, 400));
    const three = accounts(3);
    expect(await manager.warm(three)).toEqual({ wanted: 3, open: 2, waiting: 1, opened: 2, failures: 0 });
    expect(sandbox.control.counters().tradeSockets).toEqual({ opened: 2, open: 2, refusedByIp: {} });
    await until(() => manager.stats().open === 3);
    expect(three.every((account) => manager.ready(account))).toBe(true);
    expect(sandbox.control.counters().tradeSockets).toEqual({ opened: 3, open: 3, refusedByIp: {} });
  });

  it('a dropped session is reopened with backoff, never past the budget', async () => {
    const budget = new ConnectionBudget(2, 60_000);
    const asked = vi.spyOn(budget, 'waitMs');
    const manager = sessions(budget);
    const [account] = accounts(1);
    await manager.warm([account!]);
    sandbox.control.dropTradeSockets();
    await until(() => sandbox.control.counters().tradeSockets.opened === 2 && manager.ready(account!) !== undefined);
    asked.mockClear();
    sandbox.control.dropTradeSockets();
    await until(() => manager.ready(account!) === undefined);
    // The budget is spent for a minute: once its backoff is over the manager asks it, and waits rather than be refused.
    await until(() => asked.mock.results.some((result) => result.type === 'return' && (result.value as number) > 0));
    expect(manager.stats()).toMatchObject({ wanted: 1, open: 0, waiting: 1, opened: 2 });
    expect(sandbox.control.counters().tradeSockets).toEqual({ opened: 2, open: 0, refusedByIp: {} });
  });

  it('pings keep a quiet session open past the idle cut; a closed manager reopens nothing', async () => {
    // The pongs it hears tell how long the session has lived: wait until that is twice the sandbox's idle cut.
    const clock = new ExchangeClock();
    const pongsReadAt: number[] = [];
    const learn = clock.heard.bind(clock);
    clock.heard = (stamp, readAt) => (pongsReadAt.push(readAt), learn(stamp, readAt));
    const manager = sessions(new ConnectionBudget(), { clock });
    const [account] = accounts(1);
    await manager.warm([account!]);
    await until(() => pongsReadAt.length > 1 && pongsReadAt.at(-1)! - pongsReadAt[0]! >= 2 * IDLE_CUT_MS);
    expect(manager.ready(account!)).toBeDefined();
    expect(sandbox.control.counters().tradeSockets).toMatchObject({ opened: 1, open: 1 });
    manager.close();
    await until(() => sandbox.control.counters().tradeSockets.open === 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sandbox.control.counters().tradeSockets.opened).toBe(1);
  });

  it('without pings the sandbox cuts the idle session and the manager reopens it', async () => {
    const manager = sessions(new ConnectionBudget(), { pingIntervalMs: 60_000 });
    const [account] = accounts(1);
    await manager.warm([account!]);
    await until(() => sandbox.control.counters().tradeSockets.opened === 2);
    await until(() => manager.ready(account!) !== undefined);
  });
});
