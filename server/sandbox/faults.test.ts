import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './index';
import { bitgetClient, bitgetRaw, bybitClient } from './test-support';

const S = 'BTC/USDT:USDT';
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, seed: 3 });
});
afterAll(async () => sandbox.close());
beforeEach(() => sandbox.control.reset());

async function putFaults(rules: unknown[]): Promise<Response> {
  return fetch(`${sandbox.url}/control/faults`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-sandbox-control': sandbox.controlToken }, body: JSON.stringify({ rules }) });
}

async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

describe('fault injection through the control endpoint', () => {
  it('adds fixed or uniformly distributed latency to one route', async () => {
    expect((await putFaults([{ route: '/v5/market/time', latencyMs: 300 }, { route: '/api/v2/public/time', latencyMs: { min: 150, max: 200 } }])).status).toBe(200);
    expect(await timed(() => fetch(`${sandbox.url}/v5/market/time`).then((r) => r.text()))).toBeGreaterThanOrEqual(295);
    expect(await timed(() => fetch(`${sandbox.url}/api/v2/public/time`).then((r) => r.text()))).toBeGreaterThanOrEqual(145);
    const invalid = await putFaults([{ errorShare: 2 }]);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ error: 'rules.0.errorShare: Too big: expected number to be <=1' });
  });

  it('answers a share of requests with HTTP 5xx, scoped to one account, without applying them', async () => {
    const hit = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const spared = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    await putFaults([{ account: hit.uid, errorShare: 1, errorStatus: 503 }]);
    await expect(bybitClient(sandbox.url, hit).createOrder(S, 'market', 'buy', 0.01)).rejects.toBeInstanceOf(ccxt.ExchangeNotAvailable);
    expect(sandbox.control.account(hit.uid).orders).toEqual([]);
    await bybitClient(sandbox.url, spared).createOrder(S, 'market', 'buy', 0.01);
    expect(sandbox.control.account(spared.uid).orders).toHaveLength(1);
  });

  it('draws shares from the seeded generator', async () => {
    sandbox.control.setFaults([{ route: '/v5/market/time', errorShare: 0.5 }]);
    const statuses = await Promise.all(Array.from({ length: 200 }, () => fetch(`${sandbox.url}/v5/market/time`).then((r) => r.status)));
    const failed = statuses.filter((status) => status === 503).length;
    expect(failed).toBeGreaterThan(70);
    expect(failed).toBeLessThan(130);
    expect(failed + statuses.filter((status) => status === 200).length).toBe(200);
  });

  it('a timeout applies the order but the answer never comes; the retry with the same client id finds it', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    sandbox.control.setFaults([{ route: '/v5/order/create', timeoutShare: 1, remaining: 1 }]);
    const ex = bybitClient(sandbox.url, creds, { timeout: 400 });
    await expect(ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'retry-1' })).rejects.toBeInstanceOf(ccxt.RequestTimeout);
    expect(sandbox.control.account(creds.uid).orders.map((o) => [o.clientOrderId, o.status])).toEqual([['retry-1', 'filled']]);
    await expect(ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'retry-1' })).rejects.toBeInstanceOf(ccxt.DuplicateOrderId);
    const found = await ex.fetchOrder(undefined as unknown as string, S, { orderLinkId: 'retry-1', acknowledged: true });
    expect(found).toMatchObject({ clientOrderId: 'retry-1', status: 'closed', filled: 0.01 });
    expect(sandbox.control.faults()[0]?.remaining).toBe(0);
  });

  it('a late answer arrives after the given delay', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    sandbox.control.setFaults([{ exchange: 'bitget', route: '/api/v2/mix/order/place-order', timeoutShare: 1, timeoutMs: 300 }]);
    const order = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginMode: 'crossed', marginCoin: 'USDT', size: '0.01', side: 'buy', orderType: 'market', clientOid: 'late-1' };
    let answer: Awaited<ReturnType<typeof bitgetRaw>> | undefined;
    const elapsed = await timed(async () => (answer = await bitgetRaw(sandbox.url, creds, 'POST', '/api/v2/mix/order/place-order', order)));
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(answer?.json()).toMatchObject({ code: '00000', data: { clientOid: 'late-1' } });
  });

  it('forces rate-limit answers (Bybit 10006, Bitget 429) and counts them', async () => {
    const bybit = sandbox.control.createAccount({ exchange: 'bybit', balance: 1000 });
    const bitget = sandbox.control.createAccount({ exchange: 'bitget', balance: 1000 });
    sandbox.control.setFaults([{ account: bybit.apiKey, rateLimitShare: 1 }, { account: bitget.uid, rateLimitShare: 1 }]);
    await expect(bybitClient(sandbox.url, bybit).fetchBalance()).rejects.toBeInstanceOf(ccxt.RateLimitExceeded);
    const bg = bitgetClient(sandbox.url, bitget);
    await bg.loadMarkets();
    await expect(bg.fetchBalance()).rejects.toBeInstanceOf(ccxt.DDoSProtection);
    expect(sandbox.control.counters().rateLimitRejections).toMatchObject({ forced: 2, total: 2 });
  });

  it('answers a canned exchange error on a route', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 1000 });
    sandbox.control.setFaults([{ route: '/v5/account/wallet-balance', reject: { code: '10016', msg: 'Server error.' }, remaining: 1 }]);
    const ex = bybitClient(sandbox.url, creds);
    await expect(ex.fetchBalance()).rejects.toThrow('"retCode":10016');
    expect((await ex.fetchBalance()).USDT?.total).toBe(1000);
  });
});
