import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CEILINGS, EXCHANGE_CEILINGS, ExchangeRateLimiter } from '../rate-limiter';

/** The windows run on timers and performance.now(): faked, so the account's window cannot pass while the test looks, however slow the machine. */
const fakeTime = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'Date', 'performance'] });
afterEach(() => {
  vi.useRealTimers();
});

const request = (channel: 'http' | 'websocket', apiKey = 'key-1') => ({ exchange: 'bybit' as const, egress: 'default', apiKey, write: 'order' as const, channel });

describe('the shared limiter and orders over the order-entry socket', () => {
  it('plans 95% of Bybit 3,000 socket orders / s per address', () => {
    expect(EXCHANGE_CEILINGS.bybit.perIpOrderEntry).toEqual({ limit: 3000, windowMs: 1000 });
    expect(DEFAULT_CEILINGS.bybit.perIpOrderEntry).toEqual({ limit: 2850, windowMs: 1000 });
  });

  it('socket orders take the account order slot shared with REST, not the HTTP window', async () => {
    fakeTime();
    const limiter = new ExchangeRateLimiter();
    const grants: Array<() => void> = [];
    for (let i = 0; i < 5; i += 1) grants.push(await limiter.acquire(request('websocket')));
    for (let i = 0; i < 4; i += 1) grants.push(await limiter.acquire(request('http')));
    // 9 of the account's 10 orders / s are granted; the tenth waits, whichever way it goes.
    let tenth = false;
    const waiting = limiter.acquire(request('websocket')).then((release) => {
      tenth = true;
      return release;
    });
    // A tenth of the window later (exactly: the clock is the test's), it still waits.
    await vi.advanceTimersByTimeAsync(100);
    expect(tenth).toBe(false);
    expect(limiter.stats().perAccountOrders).toMatchObject({ accounts: 1, granted: 9, waiting: 1 });
    // Only the 4 REST orders are in the per-address HTTP window.
    expect(limiter.stats().perIp['bybit:default']).toMatchObject({ granted: 4 });
    for (const release of grants) release();
    await vi.runAllTimersAsync();
    (await waiting)();
    expect(tenth).toBe(true);
  });

  it('an HTTP address ban does not hold socket orders (another host), and holds REST ones', async () => {
    const limiter = new ExchangeRateLimiter();
    limiter.reportAddressBan('bybit', 'default', 'HTTP 403');
    const socketGrant = await limiter.acquire(request('websocket'));
    socketGrant();
    const late = await limiter.acquire({ ...request('http'), deadline: Date.now() + 50 }).then(
      () => 'granted',
      (error: Error) => error.name,
    );
    expect(late).toBe('ExchangeFailure');
  });
});
