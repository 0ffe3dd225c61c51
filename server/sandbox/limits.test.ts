import { Agent, request } from 'node:http';
import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './index';
import { bitgetClient, bitgetRaw, bybitClient, bybitRaw } from './test-support';

let sandbox: RunningSandbox;
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
/** The sandbox clock: the wall clock, or a stopped one (`frozen`) so that a burst stays inside its window however loaded the machine is. */
let frozen: number | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, now: () => frozen ?? Date.now() });
});
afterAll(async () => {
  agent.destroy();
  await sandbox.close();
});
beforeEach(() => {
  frozen = undefined;
  sandbox.control.reset();
});

/** GETs `path` n times over keep-alive connections, `width` at a time; answers the status codes. */
async function burst(path: string, n: number, width = 100): Promise<number[]> {
  const statuses: number[] = [];
  for (let start = 0; start < n; start += width) {
    const batch = Array.from({ length: Math.min(width, n - start) }, () => get(path, { agent }).then((answer) => answer.status));
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
}

/** A plain GET; `localAddress` 127.0.0.2 makes it come from a second loopback "IP". */
function get(path: string, options: { agent?: Agent; localAddress?: string; headers?: Record<string, string> }): Promise<{ status: number; body: string }> {
  const url = new URL(`${sandbox.url}${path}`);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, ...options }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('per-IP ceilings of the real exchanges', () => {
  it('Bybit: 600 requests per 5 s per address, then HTTP 403 and a 10-minute ban of that address (ccxt RateLimitExceeded); other addresses are unaffected', async () => {
    const start = Date.now();
    frozen = start;
    const statuses = await burst('/v5/market/time', 601);
    expect(count(statuses, 200)).toBe(600);
    expect(count(statuses, 403)).toBe(1);
    expect(sandbox.control.counters().rateLimitRejections.byIp).toEqual({ '127.0.0.1': 1 });
    const bannedUntil = sandbox.control.counters().ipBans['bybit:127.0.0.1'] ?? 0;
    expect(bannedUntil).toBe(start + 600_000);
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 100 });
    await expect(bybitClient(sandbox.url, creds).fetchBalance()).rejects.toBeInstanceOf(ccxt.RateLimitExceeded);
    const other = await get('/v5/market/time', { localAddress: '127.0.0.2' });
    expect(other.status).toBe(200);
    expect(sandbox.control.counters().requestsByIp['127.0.0.2']).toBe(1);
    // The 5-second window has long rolled, the ban has not: every request is refused until it ends.
    frozen = start + 60_000;
    expect((await get('/v5/market/time', {})).status).toBe(403);
    expect(sandbox.control.account(creds.uid).balances.USDT).toBe(100);
    frozen = start + 600_100;
    expect((await get('/v5/market/time', {})).status).toBe(200);
    expect(sandbox.control.counters().ipBans).toEqual({});
    // Bitget has no such ban: its own window is all that limits it.
    expect((await get('/api/v2/public/time', {})).status).toBe(200);
  });

  it('the ban length is configurable (start option ipBanMs, PUT /control/ip-ban) and DELETE /control/ip-bans lifts bans', async () => {
    const put = await fetch(`${sandbox.url}/control/ip-ban`, { method: 'PUT', headers: { 'x-sandbox-control': sandbox.controlToken }, body: JSON.stringify({ ms: 2000 }) });
    expect(await put.json()).toEqual({ ms: 2000 });
    const start = Date.now();
    frozen = start;
    await burst('/v5/market/time', 601);
    expect((await get('/v5/market/time', {})).status).toBe(403);
    frozen = start + 6000;
    expect((await get('/v5/market/time', {})).status).toBe(200);
    frozen = start + 12_000;
    await burst('/v5/market/time', 601);
    expect((await get('/v5/market/time', {})).status).toBe(403);
    expect((await fetch(`${sandbox.url}/control/ip-bans`, { method: 'DELETE', headers: { 'x-sandbox-control': sandbox.controlToken } })).status).toBe(200);
    frozen = start + 18_000;
    expect((await get('/v5/market/time', {})).status).toBe(200);
  });

  it('Bitget: 6000 requests per minute per address, then HTTP 429 {"code":"429"} (ccxt DDoSProtection)', async () => {
    frozen = Date.now();
    const statuses = await burst('/api/v2/public/time', 6001, 200);
    expect(count(statuses, 200)).toBe(6000);
    const limited = await fetch(`${sandbox.url}/api/v2/public/time`);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: '429', msg: 'Too Many Requests' });
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 100 });
    await expect(bitgetClient(sandbox.url, creds).fetchBalance()).rejects.toBeInstanceOf(ccxt.DDoSProtection);
  }, 30_000);

  it('the control endpoint answers 127.0.0.1 only', async () => {
    const headers = { 'x-sandbox-control': sandbox.controlToken };
    expect((await get('/control/state', { localAddress: '127.0.0.2', headers })).status).toBe(403);
    expect((await get('/control/state', { headers })).status).toBe(200);
  });
});

describe('per-account ceilings', () => {
  it('Bybit order create: 10 per second per UID, the 11th gets retCode 10006 (ccxt RateLimitExceeded)', async () => {
    // The one-second window stopped, 4 s ahead: Bybit takes a signed request whose timestamp is within
    // [server - 5 s, server + 1 s), so the requests below may be signed up to 5 s after this.
    frozen = Date.now() + 4_000;
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const order = { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.001' };
    const answers = await Promise.all(Array.from({ length: 11 }, () => bybitRaw(sandbox.url, creds, 'POST', '/v5/order/create', order)));
    const codes = answers.map((a) => a.json().retCode).sort();
    expect(codes).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10006]);
    expect(answers.map((a) => a.headers['x-bapi-limit-status']).sort()).toEqual(['0', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(answers[0]?.headers['x-bapi-limit']).toBe('10');
    await expect(bybitClient(sandbox.url, creds).createOrder('BTC/USDT:USDT', 'market', 'buy', 0.001)).rejects.toBeInstanceOf(ccxt.RateLimitExceeded);
    const other = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    expect((await bybitRaw(sandbox.url, other, 'POST', '/v5/order/create', order)).json().retCode).toBe(0);
    expect(sandbox.control.account(creds.uid).orders).toHaveLength(10);
    expect(sandbox.control.counters().rateLimitRejections.byAccount).toEqual({ [creds.uid]: 2 });
  });

  it('Bitget place-order: 10 per second per UID, the 11th gets HTTP 429 (ccxt DDoSProtection)', async () => {
    // The one-second window stopped (Bitget takes timestamps within 30 s of its clock).
    frozen = Date.now();
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const order = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginMode: 'crossed', marginCoin: 'USDT', size: '0.001', side: 'buy', orderType: 'market' };
    const answers = await Promise.all(Array.from({ length: 11 }, () => bitgetRaw(sandbox.url, creds, 'POST', '/api/v2/mix/order/place-order', order)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429]);
    await expect(bitgetClient(sandbox.url, creds).createOrder('BTC/USDT:USDT', 'market', 'buy', 0.001)).rejects.toBeInstanceOf(ccxt.DDoSProtection);
    expect(sandbox.control.account(creds.uid).positions[0]?.size).toBeCloseTo(0.01, 9);
  });
});
