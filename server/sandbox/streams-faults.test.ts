import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginFrame, RawBitgetSocket } from './bitget-ws/test-client';
import { RawPrivateSocket } from './bybit-private/test-client';
import { signTradeAuth } from './bybit-ws/test-client';
import type { Credentials } from './control';
import { deepBook, startSandbox, type RunningSandbox, type StartSandboxOptions } from './index';
import { bybitRaw } from './test-support';

const T = 1_700_000_000_000;
let clock = T;
let sandbox: RunningSandbox;
let bybit: Credentials;
let bitget: Credentials;
const sockets: Array<RawPrivateSocket | RawBitgetSocket> = [];

function start(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ randomWalk: false, book: deepBook, now: () => clock, ...options });
}

async function bybitStream(account: Credentials = bybit, on: RunningSandbox = sandbox): Promise<RawPrivateSocket> {
  const socket = await RawPrivateSocket.open(on.privateStreamUrl);
  sockets.push(socket);
  expect(await socket.auth(account, clock + 10_000)).toMatchObject({ success: true });
  expect(await socket.subscribe(['order', 'execution', 'position', 'wallet'])).toMatchObject({ success: true });
  return socket;
}

async function bitgetStream(account: Credentials = bitget): Promise<RawBitgetSocket> {
  const socket = await RawBitgetSocket.open(sandbox.bitgetPrivateUrl);
  sockets.push(socket);
  expect(await socket.login(account, T / 1000)).toEqual({ event: 'login', code: 0 });
  await socket.subscribe(['orders', 'positions', 'account']);
  return socket;
}

async function buy(account: Credentials = bybit, linkId = `b-${Math.random().toString(36).slice(2, 10)}`, on: RunningSandbox = sandbox): Promise<void> {
  const body = { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.01', orderLinkId: linkId };
  expect((await bybitRaw(on.url, account, 'POST', '/v5/order/create', body, { timestamp: clock })).json()).toMatchObject({ retCode: 0 });
}

async function pong(socket: RawPrivateSocket): Promise<void> {
  const before = socket.frames.length;
  socket.send({ op: 'ping' });
  await socket.until(() => socket.frames.slice(before).some((frame) => frame.op === 'pong'));
}

const control = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.url}/control${path}`, { method, headers: { 'x-sandbox-control': sandbox.controlToken }, body: body === undefined ? undefined : JSON.stringify(body) });

beforeAll(async () => {
  sandbox = await start();
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  clock = T;
  sandbox.control.reset();
  bybit = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
  bitget = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

describe('private streams: drops and reconnect refusals', () => {
  it("drops one account's streams at once and leaves the others open", async () => {
    const other = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const [mine, theirs, gets] = [await bybitStream(), await bybitStream(other), await bitgetStream()];
    expect(sandbox.control.dropStreams({ account: bybit.uid })).toBe(1);
    await mine.until(() => mine.closed);
    expect(mine.closeCode).toBe(1006);
    await pong(theirs);
    expect(await gets.ask('ping')).toBe('pong');
    expect(sandbox.control.counters().privateStreams.open).toEqual({ bybit: 1, bitget: 1 });
  });

  it("drops an exchange's streams and refuses its new sockets with HTTP 503 while the refusal lasts; the other exchange is untouched", async () => {
    const [first, gets] = [await bybitStream(), await bitgetStream()];
    expect(sandbox.control.dropStreams({ exchange: 'bybit', refuseMs: 5000 })).toBe(1);
    await first.until(() => first.closed);
    await expect(RawPrivateSocket.open(sandbox.privateStreamUrl)).rejects.toThrow('HTTP 503');
    expect(await gets.ask('ping')).toBe('pong');
    clock += 5000;
    await bybitStream();
    expect(sandbox.control.counters().privateStreams.refusedByAddress).toEqual({ 'bybit:127.0.0.1': 1 });
  });

  it("refuses one account's logins for a while: the socket opens, and is cut when it authenticates", async () => {
    sandbox.control.dropStreams({ account: bybit.uid, refuseMs: 1000 });
    sandbox.control.dropStreams({ account: bitget.uid, refuseMs: 1000 });
    const socket = await RawPrivateSocket.open(sandbox.privateStreamUrl);
    sockets.push(socket);
    expect(await socket.ask({ op: 'ping' })).toMatchObject({ op: 'pong' });
    socket.send({ op: 'auth', args: [bybit.apiKey, clock + 10_000, signTradeAuth(bybit.secret, clock + 10_000)] });
    await socket.until(() => socket.closed);
    expect(socket.frames).toHaveLength(1);
    const login = await RawBitgetSocket.open(sandbox.bitgetPrivateUrl);
    sockets.push(login);
    login.send(loginFrame(bitget, T / 1000));
    await login.until(() => login.closed);
    expect(login.frames).toEqual([]);
    await bybitStream(sandbox.control.createAccount({ exchange: 'bybit' }));
    clock += 1000;
    await bybitStream();
    await bitgetStream();
  });
});

describe('private streams: delayed, duplicated and stalled events', () => {
  it('delays each event of the account by the rule, in order, while answers still come at once', async () => {
    const socket = await bybitStream();
    sandbox.control.setStreamFaults([{ account: bybit.uid, delayMs: 300 }]);
    const started = performance.now();
    await buy();
    await pong(socket);
    expect(socket.timeline()).toEqual([]);
    await socket.until(() => socket.timeline().length === 4);
    expect(performance.now() - started).toBeGreaterThanOrEqual(299);
    expect(socket.timeline().map(([topic]) => topic)).toEqual(['order', 'execution', 'position', 'wallet']);
  });

  it('duplicates events; with a share, which ones is drawn from the seed and the same for the same seed', async () => {
    const socket = await bybitStream();
    sandbox.control.setStreamFaults([{ exchange: 'bybit', duplicateShare: 1 }]);
    await buy();
    await pong(socket);
    expect(socket.timeline().map(([topic]) => topic)).toEqual(['order', 'order', 'execution', 'execution', 'position', 'position', 'wallet', 'wallet']);
    const runs: string[][] = [];
    for (let run = 0; run < 2; run += 1) {
      const seeded = await start({ seed: 7 });
      try {
        const account = seeded.control.createAccount({ exchange: 'bybit', balance: 10_000, uid: '123456789' });
        const stream = await bybitStream(account, seeded);
        seeded.control.setStreamFaults([{ duplicateShare: 0.5 }]);
        for (let order = 0; order < 3; order += 1) await buy(account, `seeded-${order}`, seeded);
        await pong(stream);
        runs.push(stream.timeline().map(([topic]) => topic));
      } finally {
        await seeded.close();
      }
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(runs[0]?.length).toBeGreaterThan(12);
    expect(runs[0]?.length).toBeLessThan(24);
  });

  it('a stall keeps the socket open and sends nothing, answers included; what was stalled never arrives', async () => {
    const socket = await bybitStream();
    const gets = await bitgetStream();
    sandbox.control.setStreamFaults([{ exchange: 'bybit', stall: true }]);
    socket.send({ op: 'ping' });
    await buy();
    expect(await gets.ask('ping')).toBe('pong');
    sandbox.control.setStreamFaults([]);
    await pong(socket);
    expect(socket.closed).toBe(false);
    expect(socket.frames.slice(2)).toEqual([{ op: 'pong', args: [String(T)], conn_id: expect.any(String) }]);
    await buy();
    await pong(socket);
    expect(socket.timeline().map(([topic]) => topic)).toEqual(['order', 'execution', 'position', 'wallet']);
  });
});

describe('private streams: the control endpoint', () => {
  it('PUT/GET/DELETE /control/streams/faults and POST /control/streams/drop', async () => {
    const gets = await bitgetStream();
    const rules = [{ exchange: 'bitget', delayMs: { min: 10, max: 20 } }, { account: bybit.uid, stall: true }];
    expect(await (await control('PUT', '/streams/faults', { rules })).json()).toEqual({ rules });
    expect((await control('PUT', '/streams/faults', { rules: [{ stalled: true }] })).status).toBe(400);
    expect(await (await control('POST', '/streams/drop', { exchange: 'bitget', refuseMs: 2000 })).json()).toEqual({ dropped: 1 });
    await gets.until(() => gets.closed);
    expect(await (await control('GET', '/streams/faults')).json()).toEqual({ rules, refusals: [{ exchange: 'bitget', until: T + 2000 }] });
    expect(await (await control('DELETE', '/streams/faults')).json()).toEqual({ rules: [], refusals: [] });
    expect((await control('POST', '/streams/drop', { account: 'nobody' })).status).toBe(404);
    expect(sandbox.control.counters().privateStreams).toMatchObject({ opened: { bybit: 0, bitget: 1 }, open: { bybit: 0, bitget: 0 } });
  });
});
