import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExchangeRateLimiter, ORDER_ENTRY_SLACK_MS } from './rate-limiter';
import { readKind, writeKind } from './request-kinds';
import { SlidingWindow } from './sliding-window';
import type { SharedWindow } from './egress-share';

/**
 * The windows run on timers and performance.now(): faked here, so every grant's time is the exact one
 * the windows decide, whatever the machine's speed (vi.runAllTimersAsync / advanceTimersByTimeAsync).
 */
const fakeTime = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'Date', 'performance'] });
afterEach(() => {
  vi.useRealTimers();
});

describe('SlidingWindow', () => {
  it('lets the first request through at once and never more than the limit per window', async () => {
    fakeTime();
    const window = new SlidingWindow(5, 200);
    const started = performance.now();
    const grants: number[] = [];
    const all = Promise.all(
      Array.from({ length: 12 }, () =>
        window.acquire().then((done) => {
          grants.push(performance.now() - started);
          done();
        }),
      ),
    );
    await vi.runAllTimersAsync();
    await all;
    // Five at once, five a window (and the timer's 1 ms) after their answers, the last two a window later.
    expect(grants).toEqual([0, 0, 0, 0, 0, 201, 201, 201, 201, 201, 402, 402]);
    const stats = window.snapshot();
    expect(stats.granted).toBe(12);
    // The first five went at once, without waiting: only the other seven were delayed.
    expect(stats.delayed).toBe(7);
    expect(stats.waiting).toBe(0);
  });

  it('takes a new limit at once: grants already in the window stay counted after a cut, a raise serves the waiters', async () => {
    let clock = 0;
    const window = new SlidingWindow(4, 100, () => clock);
    const held = [window.tryAcquire()!, window.tryAcquire()!, window.tryAcquire()!];
    window.resize(2);
    expect(window.tryAcquire()).toBeUndefined();
    for (const done of held) done();
    clock = 101;
    expect(window.tryAcquire()).toBeDefined();
    expect(window.tryAcquire()).toBeDefined();
    expect(window.tryAcquire()).toBeUndefined();
    const waiting = window.acquire();
    window.resize(3);
    await expect(waiting).resolves.toBeTypeOf('function');
    expect(window.snapshot()).toMatchObject({ limit: 3, inWindow: 3, waiting: 0 });
  });

  it("counts a slot's window from the answer's time when the caller knows it, never from before the grant or out of order", () => {
    let clock = 1_000;
    const window = new SlidingWindow(2, 100, () => clock);
    const first = window.tryAcquire()!;
    const second = window.tryAcquire()!;
    expect(window.tryAcquire()).toBeUndefined();
    clock = 1_080;
    // Read at 1,080, answered by the exchange at 1,010: the slot is free again at 1,110, not 1,180.
    first(1_010);
    // An answer's time before its grant means a wrong clock: counted from now (1,080).
    second(990);
    clock = 1_109;
    expect(window.tryAcquire()).toBeUndefined();
    clock = 1_110;
    const third = window.tryAcquire()!;
    expect(third).toBeDefined();
    expect(window.tryAcquire()).toBeUndefined();
    clock = 1_179;
    expect(window.tryAcquire()).toBeUndefined();
    clock = 1_180;
    const fourth = window.tryAcquire()!;
    expect(fourth).toBeDefined();
    clock = 1_200;
    fourth(1_190);
    // Kept in order: answered at 1,150 but finished after one counted from 1,190, it counts from 1,190 too.
    third(1_150);
    third(1_120);
    expect(window.snapshot().inWindow).toBe(2);
    clock = 1_289;
    expect(window.tryAcquire()).toBeUndefined();
    clock = 1_290;
    expect(window.tryAcquire()).toBeDefined();
    expect(window.tryAcquire()).toBeDefined();
  });

  it('serves waiters in arrival order', async () => {
    const window = new SlidingWindow(1, 50);
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3].map((n) =>
        window.acquire().then((done) => {
          order.push(n);
          done();
        }),
      ),
    );
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('keeps a slot while its request is in flight and gives it again a full window after the answer', async () => {
    fakeTime();
    const window = new SlidingWindow(1, 100);
    const started = performance.now();
    const done = await window.acquire();
    let grantedAt: number | undefined;
    const next = window.acquire().then((release) => {
      grantedAt = performance.now() - started;
      release();
    });
    await vi.advanceTimersByTimeAsync(250);
    expect(grantedAt).toBeUndefined();
    done();
    await vi.runAllTimersAsync();
    await next;
    // A full window (and the timer's 1 ms) after the answer at 250.
    expect(grantedAt).toBe(351);
  });

  it('drops an aborted waiter without using a slot', async () => {
    const window = new SlidingWindow(1, 100);
    await window.acquire();
    const controller = new AbortController();
    const waiting = window.acquire(controller.signal);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    expect(window.snapshot().waiting).toBe(0);
  });
});

describe('ExchangeRateLimiter', () => {
  it('knows the order-writing endpoints of both exchanges', () => {
    expect(writeKind('bybit', 'v5/order/create')).toBe('order');
    expect(writeKind('bybit', 'v5/position/trading-stop')).toBe('order');
    expect(writeKind('bybit', 'v5/position/set-leverage')).toBe('setting');
    expect(writeKind('bybit', 'v5/position/list')).toBeUndefined();
    expect(writeKind('bitget', 'v2/mix/order/place-order')).toBe('order');
    expect(writeKind('bitget', '/api/v2/mix/account/set-leverage')).toBe('setting');
    expect(writeKind('bitget', 'v2/mix/order/detail')).toBeUndefined();
    expect(readKind('bitget', 'v2/mix/position/all-position')).toBe('positions');
    expect(readKind('bitget', '/api/v2/mix/order/detail')).toBe('orderDetail');
    expect(readKind('bitget', 'v2/mix/order/orders-plan-pending')).toBe('planPending');
    expect(readKind('bitget', 'v2/mix/order/orders-plan-history')).toBe('planHistory');
    expect(readKind('bitget', 'v2/spot/account/info')).toBe('keyInfo');
    expect(readKind('bitget', 'v2/mix/account/accounts')).toBeUndefined();
    expect(readKind('bybit', 'v5/position/list')).toBeUndefined();
  });

  it('holds one account to its order ceiling while another account goes through', async () => {
    fakeTime();
    const limiter = new ExchangeRateLimiter(
      {
        bybit: { perIp: { limit: 1000, windowMs: 1000 }, maxInFlight: 100, perAccountOrders: { limit: 2, windowMs: 300 }, perAccountSettings: { limit: 2, windowMs: 300 } },
        bitget: { perIp: { limit: 1000, windowMs: 1000 }, maxInFlight: 100, perAccountOrders: { limit: 2, windowMs: 300 }, perAccountSettings: { limit: 2, windowMs: 300 } },
      },
      0,
    );
    const started = performance.now();
    const times: Record<string, number[]> = { a: [], b: [] };
    const send = (key: 'a' | 'b') => limiter.acquire({ exchange: 'bybit', egress: 'x', apiKey: key, write: 'order' }).then((release) => {
      times[key]!.push(performance.now() - started);
      release();
    });
    const all = Promise.all([send('a'), send('a'), send('a'), send('b'), send('b')]);
    await vi.runAllTimersAsync();
    await all;
    // b's two orders at once; a's third once its first has left a's 300 ms window (and the timer's 1 ms).
    expect(times).toEqual({ a: [0, 0, 301], b: [0, 0] });
    const stats = limiter.stats();
    expect(stats.perAccountOrders).toMatchObject({ accounts: 2, granted: 5, delayed: 1 });
    expect(stats.perIp['bybit:x']).toMatchObject({ granted: 5, limit: 1000 });
  });

  it("spaces the address's order-entry window by the exchange's answer, without the HTTP windows' slack", async () => {
    fakeTime();
    const ceilings = { perIp: { limit: 1000, windowMs: 1000 }, maxInFlight: 100, perAccountOrders: { limit: 100, windowMs: 1000 }, perAccountSettings: { limit: 100, windowMs: 1000 } };
    // HTTP windows here get 400 ms of slack; one order per 200 ms over the socket.
    const limiter = new ExchangeRateLimiter({ bybit: { ...ceilings, perIpOrderEntry: { limit: 1, windowMs: 200 } }, bitget: ceilings }, 400);
    const order = (apiKey: string) => limiter.acquire({ exchange: 'bybit', egress: 'x', apiKey, write: 'order', channel: 'websocket' });
    const first = await order('a');
    const answeredAt = performance.now();
    first(answeredAt);
    const second = order('b');
    await vi.runAllTimersAsync();
    await second;
    // The window's 200 ms, its slack and the timer's 1 ms; not the HTTP windows' 400 ms of slack.
    expect(performance.now() - answeredAt).toBe(200 + ORDER_ENTRY_SLACK_MS + 1);
  });

  it("splits the address's order-entry window by this process's part: half the orders at once, none while its part is 0", async () => {
    fakeTime();
    const ceilings = { perIp: { limit: 1000, windowMs: 1000 }, maxInFlight: 100, perAccountOrders: { limit: 100, windowMs: 1000 }, perAccountSettings: { limit: 100, windowMs: 1000 } };
    const limiter = new ExchangeRateLimiter({ bybit: { ...ceilings, perIpOrderEntry: { limit: 10, windowMs: 60_000 } }, bitget: ceilings }, 0);
    const granted: string[] = [];
    const order = (n: number) =>
      limiter.acquire({ exchange: 'bybit', egress: 'x', apiKey: `k${n}`, write: 'order', channel: 'websocket' }).then((release) => (granted.push(`k${n}`), release));
    limiter.shareOrderEntry('bybit', 'x', 0.5);
    const orders = Array.from({ length: 8 }, (_, n) => order(n));
    // Everything that can be granted now (the window is a minute long: nothing frees before it).
    await vi.advanceTimersByTimeAsync(20);
    expect(granted).toHaveLength(5);
    expect(limiter.orderEntryOpen('bybit', 'x')).toBe(true);
    // The other process on the address stopped: the whole window is this one's again.
    limiter.shareOrderEntry('bybit', 'x', 1);
    await vi.advanceTimersByTimeAsync(20);
    await Promise.all(orders);
    expect(granted).toHaveLength(8);
    limiter.shareOrderEntry('bybit', 'x', 0);
    expect(limiter.orderEntryOpen('bybit', 'x')).toBe(false);
    expect(limiter.orderEntryOpen('bybit', 'y')).toBe(true);
    expect(() => limiter.shareOrderEntry('bybit', 'x', 1.5)).toThrow(RangeError);
  });

  it('lets background work hold only its share of the address window: trading finds the rest free at once', async () => {
    fakeTime();
    const ceilings = { perIp: { limit: 8, windowMs: 60_000 }, maxInFlight: 100, perAccountOrders: { limit: 100, windowMs: 1000 }, perAccountSettings: { limit: 100, windowMs: 1000 } };
    const limiter = new ExchangeRateLimiter({ bybit: ceilings, bitget: ceilings }, 0);
    const read = (background?: boolean) => limiter.acquire({ exchange: 'bybit', egress: 'x', write: undefined, background });
    let backgroundGranted = 0;
    // Eight background reads queued: the window is 8, background may hold a quarter of it (2).
    const background = Promise.all(Array.from({ length: 8 }, () => read(true).then((release) => (backgroundGranted += 1, release))));
    await vi.advanceTimersByTimeAsync(20);
    expect(backgroundGranted).toBe(2);
    // Trading's six reads are granted at once (no time passes), whatever background work still waits for.
    let trading: unknown[] | undefined;
    void Promise.all(Array.from({ length: 6 }, () => read())).then((granted) => (trading = granted));
    await vi.advanceTimersByTimeAsync(0);
    expect(trading).toHaveLength(6);
    expect(backgroundGranted).toBe(2);
    expect(limiter.stats().perIp['bybit:x']).toMatchObject({ granted: 8 });
    void background.catch(() => undefined);
  });
});

describe('a process whose background work is queueing asks the shared budget for more', () => {
  it('counts background requests waiting for their part as waiting for the window (else the stream catch-ups of 5,000 accounts crawl at 2 a second)', async () => {
    let shared: SharedWindow | undefined;
    const budget = {
      share: (_exchange: unknown, _egress: unknown, _ceiling: unknown, window: SharedWindow) => {
        shared = window;
        window.resize(8);
      },
      take: async () => undefined,
    };
    const limiter = new ExchangeRateLimiter(undefined, undefined, undefined, budget as never);
    // A part of 8: the background may hold 2 of it; the third background request waits for its part.
    const grants = await Promise.all([0, 1].map(() => limiter.acquire({ exchange: 'bybit', egress: 'default', write: undefined, background: true })));
    const third = limiter.acquire({ exchange: 'bybit', egress: 'default', write: undefined, background: true });
    await vi.waitFor(() => expect(shared!.usage().waiting).toBe(1));
    for (const done of grants) done();
    shared!.resize(600);
    (await third)();
  });
});
