import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from './index';
import { RawTradeSocket } from './bybit-ws/test-client';
import { bybitRaw } from './test-support';

const running: RunningSandbox[] = [];

async function start(options: Parameters<typeof startSandbox>[0]): Promise<RunningSandbox> {
  const sandbox = await startSandbox(options);
  running.push(sandbox);
  return sandbox;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('prices', () => {
  it('walk deterministically per seed, on the tick size, stepped through the control endpoint', async () => {
    const a = await start({ randomWalk: false, seed: 42 });
    const b = await start({ randomWalk: false, seed: 42 });
    const c = await start({ randomWalk: false, seed: 43 });
    const stepped = async (sandbox: RunningSandbox) => {
      const response = await fetch(`${sandbox.url}/control/prices/step`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sandbox-control': sandbox.controlToken }, body: JSON.stringify({ symbol: 'BTCUSDT', steps: 25 }) });
      return ((await response.json()) as Record<string, number>).BTCUSDT ?? 0;
    };
    const [pa, pb, pc] = [await stepped(a), await stepped(b), await stepped(c)];
    expect(pa).toBe(pb);
    expect(pa).not.toBe(pc);
    expect(pa).not.toBe(60000);
    expect(Math.abs(Math.round(pa * 10) - pa * 10)).toBeLessThan(1e-6);
    expect(a.control.prices().ETHUSDT).toBe(3000);
  });

  it('moves on a per-symbol timer that can be stopped', async () => {
    const sandbox = await start({ randomWalk: false });
    expect(sandbox.control.startRandomWalk(['SOLUSDT'], 20)).toEqual(['SOLUSDT']);
    await vi.waitFor(() => expect(sandbox.control.prices().SOLUSDT).not.toBe(150), { timeout: 30_000, interval: 20 });
    expect(sandbox.control.prices().BTCUSDT).toBe(60000);
    const stop = await fetch(`${sandbox.url}/control/random-walk`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sandbox-control': sandbox.controlToken }, body: JSON.stringify({ enabled: false }) });
    expect(await stop.json()).toEqual({ walking: [] });
    const frozen = sandbox.control.prices().SOLUSDT;
    await sleep(80);
    expect(sandbox.control.prices().SOLUSDT).toBe(frozen);
  });

  it('sets a price through the control endpoint and refuses unknown symbols with a clear message', async () => {
    const sandbox = await start({ randomWalk: false });
    const set = await fetch(`${sandbox.url}/control/prices`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sandbox-control': sandbox.controlToken }, body: JSON.stringify({ symbol: 'XRPUSDT', price: 0.61234 }) });
    expect(await set.json()).toEqual({ symbol: 'XRPUSDT', price: 0.6123 });
    const bad = await fetch(`${sandbox.url}/control/prices`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-sandbox-control': sandbox.controlToken }, body: JSON.stringify({ symbol: 'LTCUSDT', price: 80 }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Unknown symbol LTCUSDT' });
  });
});

describe('the injectable clock', () => {
  it('drives the Bybit recv window and the OAuth code lifetime', async () => {
    let now = Date.UTC(2030, 0, 1);
    const sandbox = await start({ randomWalk: false, now: () => now });
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 1 });
    const inWindow = await bybitRaw(sandbox.url, creds, 'GET', '/v5/account/wallet-balance', { accountType: 'UNIFIED' }, { timestamp: now - 4000 });
    expect(inWindow.json()).toMatchObject({ retCode: 0, time: now });
    const late = await bybitRaw(sandbox.url, creds, 'GET', '/v5/account/wallet-balance', { accountType: 'UNIFIED' }, { timestamp: now - 5001 });
    expect(late.json()).toMatchObject({ retCode: 10002 });
    const early = await bybitRaw(sandbox.url, creds, 'GET', '/v5/account/wallet-balance', { accountType: 'UNIFIED' }, { timestamp: now + 1000 });
    expect(early.json()).toMatchObject({ retCode: 10002 });

    const redirect = 'http://127.0.0.1:1/cb';
    const posted = await fetch(`${sandbox.url}/en/oauth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'sandbox-bybit-client', redirect_uri: redirect, state: 's', decision: 'allow' }).toString(),
      redirect: 'manual',
    });
    const code = new URL(posted.headers.get('location') ?? '').searchParams.get('code') ?? '';
    now += 5 * 60 * 1000;
    const expired = await fetch(`${sandbox.url}/oauth/v1/public/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'sandbox-bybit-client', client_secret: 'sandbox-bybit-secret', code }).toString(),
    });
    expect(expired.status).toBe(400);
  });
});

describe('accounts through the control endpoint', () => {
  it('creates (generated or given credentials), updates, funds, reads and deletes accounts', async () => {
    const sandbox = await start({ randomWalk: false });
    const post = (path: string, body: unknown, method = 'POST') =>
      fetch(`${sandbox.url}/control${path}`, { method, headers: { 'content-type': 'application/json', 'x-sandbox-control': sandbox.controlToken }, body: JSON.stringify(body) });
    const created = await post('/accounts', { exchange: 'bitget', balance: 250, ips: ['127.0.0.1'] });
    expect(created.status).toBe(201);
    const creds = (await created.json()) as { uid: string; apiKey: string; secret: string; passphrase: string };
    expect(creds.apiKey).toMatch(/^bg_[0-9a-f]{32}$/);
    expect(creds.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(creds.passphrase).toHaveLength(16);
    const given = (await (await post('/accounts', { exchange: 'bybit', uid: '123456', apiKey: 'GIVENKEY123', secret: 'GIVENSECRET123' })).json()) as Record<string, string>;
    expect(given).toEqual({ exchange: 'bybit', uid: '123456', apiKey: 'GIVENKEY123', secret: 'GIVENSECRET123', passphrase: '' });
    expect((await post('/accounts', { exchange: 'bybit', apiKey: 'GIVENKEY123' })).status).toBe(400);
    expect(await (await post('/accounts', { exchange: 'okx' })).json()).toEqual({ error: 'exchange: Invalid option: expected one of "bybit"|"bitget"' });

    const patched = (await (await post(`/accounts/${creds.uid}`, { permissions: { withdraw: true }, positionMode: 'hedge' }, 'PATCH')).json()) as Record<string, unknown>;
    expect(patched).toMatchObject({ permissions: { read: true, trade: true, withdraw: true }, positionMode: 'hedge', ips: ['127.0.0.1'] });
    expect(await (await post(`/accounts/${creds.uid}/fund`, { amount: 50 })).json()).toEqual({ balance: 300 });
    const state = (await (await fetch(`${sandbox.url}/control/accounts/${creds.uid}`, { headers: { 'x-sandbox-control': sandbox.controlToken } })).json()) as Record<string, unknown>;
    expect(state).toMatchObject({ balances: { USDT: 300 }, equity: 300, available: 300, orders: [], positions: [] });
    expect(JSON.stringify(state)).not.toContain(creds.secret);

    expect((await post(`/accounts/${creds.uid}`, {}, 'DELETE')).status).toBe(200);
    const gone = await fetch(`${sandbox.url}/control/accounts/${creds.uid}`, { headers: { 'x-sandbox-control': sandbox.controlToken } });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ error: `No sandbox account ${creds.uid}` });
  });
});

describe('strictness switches of the unverified rows', () => {
  it('default to the stricter reading, are set at start and through PATCH /control/strictness, and come back on reset', async () => {
    const sandbox = await start({ randomWalk: false, strictness: { bitgetStopAtEntryRefused: false } });
    const read = async () => (await (await fetch(`${sandbox.url}/control/strictness`, { headers: { 'x-sandbox-control': sandbox.controlToken } })).json()) as Record<string, boolean>;
    expect(await read()).toEqual({
      bybitConditionalSurvivesClose: true,
      bitgetStopAtEntryRefused: false,
      bitgetSamePositionModeRefused: true,
      bitgetOneWayReduceOnlyTriggerRefused: true,
      bitgetSecondPositionTpslRefused: true,
      bitgetOversizedReduceOnlyRefused: true,
      bitgetEmptyBookRefused: true,
      bitgetStreamKeepalive30s: true,
    });
    const patch = (body: unknown) => fetch(`${sandbox.url}/control/strictness`, { method: 'PATCH', headers: { 'x-sandbox-control': sandbox.controlToken }, body: JSON.stringify(body) });
    const changed = await patch({ bybitConditionalSurvivesClose: false });
    expect(((await changed.json()) as Record<string, boolean>).bybitConditionalSurvivesClose).toBe(false);
    const unknown = await patch({ lenientEverything: true });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toMatch(/lenientEverything/);
    expect((await patch({ bitgetStopAtEntryRefused: 'yes' })).status).toBe(400);
    sandbox.control.reset();
    expect(sandbox.control.strictness()).toMatchObject({ bybitConditionalSurvivesClose: true, bitgetStopAtEntryRefused: false });
  });
});

describe('latency and trade sockets through the control endpoint', () => {
  it('PUT /control/latency sets the one-way latency (bad input 400, reset restores the start option); POST /control/trade-sockets/drop cuts sockets', async () => {
    const sandbox = await start({ randomWalk: false, latencyMs: 5 });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${sandbox.url}/control${path}`, { method, headers: { 'content-type': 'application/json', 'x-sandbox-control': sandbox.controlToken }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect(await call('GET', '/latency')).toEqual({ status: 200, body: { ms: 5 } });
    expect(await call('PUT', '/latency', { ms: 30 })).toEqual({ status: 200, body: { ms: 30 } });
    expect(await call('PUT', '/latency', { ms: -1 })).toMatchObject({ status: 400, body: { error: expect.stringContaining('ms') } });
    expect(sandbox.control.latency()).toBe(30);
    sandbox.control.reset();
    expect(sandbox.control.latency()).toBe(5);

    const creds = sandbox.control.createAccount({ exchange: 'bybit' });
    const socket = await RawTradeSocket.open(sandbox.tradeSocketUrl);
    expect(await socket.auth(creds)).toMatchObject({ retCode: 0 });
    expect(await call('POST', '/trade-sockets/drop', { account: 'nobody' })).toMatchObject({ status: 404 });
    expect(await call('POST', '/trade-sockets/drop', { account: creds.uid })).toEqual({ status: 200, body: { dropped: 1 } });
    await socket.until(() => socket.closed);
    expect(sandbox.control.counters().tradeSockets).toEqual({ opened: 1, open: 0, refusedByIp: {} });
  });
});
