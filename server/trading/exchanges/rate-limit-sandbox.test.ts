import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { guardedFetch } from '../../../tests/helpers/fetch-guard';
import { createExchangeAdapters } from './index';
import { DEFAULT_CEILINGS, EXCHANGE_CEILINGS, ExchangeRateLimiter } from './rate-limiter';
import { recordingFetch, type RecordedExchange } from './recording-fetch';
import { ExchangeFailure, type Credentials, type ExchangeId } from './types';

/** Our limiter without its ceilings (it still caps requests in flight, as a socket pool would). */
const unlimited = () => {
  const open = { limit: 1_000_000, windowMs: 1000 };
  const ceilings = { perIp: open, maxInFlight: 8, perAccountOrders: open, perAccountSettings: open };
  return new ExchangeRateLimiter({ bybit: ceilings, bitget: ceilings });
};

async function outcomes(calls: Array<() => Promise<unknown>>): Promise<{ ok: number; rateLimited: number; other: string[] }> {
  const settled = await Promise.allSettled(calls.map((call) => call()));
  const result = { ok: 0, rateLimited: 0, other: [] as string[] };
  for (const entry of settled) {
    if (entry.status === 'fulfilled') result.ok += 1;
    else if (entry.reason instanceof ExchangeFailure && entry.reason.code === 'rate_limit') result.rateLimited += 1;
    else result.other.push(String(entry.reason));
  }
  return result;
}

describe('the shared limiter keeps a burst under the exchanges ceilings', () => {
  let sandbox: RunningSandbox;
  /** The sandbox clock: the wall clock, or a stopped one (`frozen`) so that a burst stays inside one window however loaded the machine is. */
  let frozen: number | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ randomWalk: false, now: () => frozen ?? Date.now() });
  });
  afterAll(async () => sandbox?.close());

  const credentialsFor = (exchange: ExchangeId, count: number): Credentials[] =>
    Array.from({ length: count }, () => {
      const created = sandbox.control.createAccount({ exchange, balance: 100_000 });
      return { apiKey: created.apiKey, secret: created.secret, passphrase: created.passphrase || undefined };
    });

  /** 700 cheap public requests at once (GET /v5/market/time), each through `gate` if given. */
  async function publicBurst(gate?: ExchangeRateLimiter): Promise<{ ok: number; refused: number; elapsedMs: number }> {
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 700 }, async () => {
        const release = gate ? await gate.acquire({ exchange: 'bybit', egress: 'default', write: undefined }) : undefined;
        try {
          const response = await guardedFetch(`${sandbox.url}/v5/market/time`);
          await response.arrayBuffer();
          return response.status;
        } finally {
          release?.();
        }
      }),
    );
    return { ok: statuses.filter((s) => s === 200).length, refused: statuses.filter((s) => s === 403).length, elapsedMs: performance.now() - started };
  }

  it('Bybit per IP: a burst of 700 through the limiter is never refused; 570 (95% of 600) go at once, the rest a window after their answers', async () => {
    sandbox.control.reset();
    const limiter = new ExchangeRateLimiter();
    const result = await publicBurst(limiter);
    expect(result).toMatchObject({ ok: 700, refused: 0 });
    expect(result.elapsedMs).toBeGreaterThan(DEFAULT_CEILINGS.bybit.perIp.windowMs);
    expect(sandbox.control.counters().rateLimitRejections.total).toBe(0);
    const stats = limiter.stats().perIp['bybit:default']!;
    expect(stats).toMatchObject({ limit: 570, granted: 700, waiting: 0, inFlight: 0 });
    // Up to 130 wait for the window (fewer when the first answers leave it while the burst still runs).
    expect(stats.delayed).toBeGreaterThan(0);
    expect(stats.delayed).toBeLessThanOrEqual(130);
  }, 30_000);

  it('Bybit per IP: the same burst without the limiter is refused as Bybit would (HTTP 403 past 600 per 5 s)', async () => {
    sandbox.control.reset();
    const result = await publicBurst();
    // How many are refused depends on how fast this machine sends them; some always are.
    expect(result.ok + result.refused).toBe(700);
    expect(result.refused).toBeGreaterThan(0);
    expect(sandbox.control.counters().rateLimitRejections.byIp).toEqual({ '127.0.0.1': result.refused });
  }, 30_000);

  it('Bybit: 700 signed requests of 35 customers through the adapters get no rate-limit refusal', async () => {
    // Client and sandbox share one event loop here: few requests in flight keep signing close to arrival.
    const limiter = new ExchangeRateLimiter({ ...DEFAULT_CEILINGS, bybit: { ...DEFAULT_CEILINGS.bybit, maxInFlight: 8 } });
    const bybit = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, fetchImplementation: guardedFetch, limiter }).bybit;
    sandbox.control.reset();
    await bybit.loadMarkets();
    const customers = credentialsFor('bybit', 35);
    const result = await outcomes(Array.from({ length: 700 }, (_, i) => () => bybit.fetchBalance(customers[i % customers.length]!)));
    expect(result).toEqual({ ok: 700, rateLimited: 0, other: [] });
    expect(sandbox.control.counters().rateLimitRejections.total).toBe(0);
  }, 60_000);

  it.each(['bybit', 'bitget'] as const)('%s: 25 orders of one account at once stay under its 10 orders/s', async (exchange) => {
    sandbox.control.reset();
    const limiter = new ExchangeRateLimiter();
    const adapter = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, fetchImplementation: guardedFetch, limiter })[exchange];
    const [creds] = credentialsFor(exchange, 1);
    const place = (i: number) => () => adapter.placeEntry(creds!, { symbol: 'BTCUSDT', side: 'long', quantity: 0.001, clientOrderId: `ct${i}-7-e`, positionMode: 'oneway' });
    const result = await outcomes(Array.from({ length: 25 }, (_, i) => place(i)));
    expect(result).toEqual({ ok: 25, rateLimited: 0, other: [] });
    expect(limiter.stats().perAccountOrders).toMatchObject({ accounts: 1, granted: 25 });
    expect(limiter.stats().perAccountOrders.delayed).toBeGreaterThanOrEqual(15);

    const unlimitedAdapter = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, fetchImplementation: guardedFetch, limiter: unlimited() })[exchange];
    const [other] = credentialsFor(exchange, 1);
    // Without the limiter the same burst is refused in part: the exchange's one-second window stopped
    // (Bybit takes a signed timestamp within [server - 5 s, server + 1 s), so 4 s ahead; Bitget within 30 s).
    frozen = Date.now() + (exchange === 'bybit' ? 4_000 : 0);
    const burst = await outcomes(
      Array.from({ length: 25 }, (_, i) => () => unlimitedAdapter.placeEntry(other!, { symbol: 'BTCUSDT', side: 'long', quantity: 0.001, clientOrderId: `ct${i}-8-e`, positionMode: 'oneway' })),
    ).finally(() => {
      frozen = undefined;
    });
    expect(burst.other).toEqual([]);
    expect(burst.rateLimited).toBeGreaterThanOrEqual(10);
  }, 30_000);

  /** The most requests to `path` that left within any `windowMs` (by the time each left). */
  const busiestWindow = (requests: RecordedExchange[], path: string, windowMs: number) => {
    const times = requests.filter((r) => r.path === path).map((r) => r.sentAt);
    return Math.max(0, ...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length));
  };

  it('Bitget reads limited per account are paced: all-position 5/s, spot account info 1/s (LIVE-FIDELITY B9)', async () => {
    sandbox.control.reset();
    const limiter = new ExchangeRateLimiter();
    const recorder = recordingFetch(guardedFetch);
    const bitget = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, fetchImplementation: recorder.fetch, limiter }).bitget;
    const [creds] = credentialsFor('bitget', 1);
    const reads = await outcomes([
      ...Array.from({ length: 12 }, () => () => bitget.fetchPositions(creds!)),
      ...Array.from({ length: 3 }, () => () => bitget.checkKey(creds!)),
    ]);
    expect(reads).toEqual({ ok: 15, rateLimited: 0, other: [] });
    expect(EXCHANGE_CEILINGS.bitget.perAccountReads).toMatchObject({ positions: { limit: 5, windowMs: 1_000 }, keyInfo: { limit: 1, windowMs: 1_000 } });
    expect(busiestWindow(recorder.requests, '/api/v2/mix/position/all-position', 1_000)).toBeLessThanOrEqual(4);
    expect(busiestWindow(recorder.requests, '/api/v2/spot/account/info', 1_000)).toBe(1);
    // 12 position lists, and per key check one spot account info and one futures single-account read.
    expect(limiter.stats().perAccountReads).toMatchObject({ accounts: 3, granted: 18, waiting: 0 });
    expect(limiter.stats().perAccountReads.delayed).toBeGreaterThanOrEqual(10);
    expect(sandbox.control.counters().rateLimitRejections.total).toBe(0);
  }, 30_000);
});
