import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Credentials } from './control';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { orderFrame, RawTradeSocket } from './bybit-ws/test-client';
import { bybitRaw } from './test-support';

let sandbox: RunningSandbox;
let creds: Credentials;
let clock = Date.now();
const sockets: RawTradeSocket[] = [];
const market = (linkId: string, extra: Record<string, unknown> = {}) => ({ category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.001', orderLinkId: linkId, ...extra });

async function open(): Promise<RawTradeSocket> {
  const socket = await RawTradeSocket.open(sandbox.tradeSocketUrl);
  sockets.push(socket);
  return socket;
}

async function authed(account: Credentials = creds): Promise<RawTradeSocket> {
  const socket = await open();
  expect(await socket.auth(account, clock + 10_000)).toMatchObject({ retCode: 0 });
  return socket;
}

beforeAll(async () => {
  // The clock stands still unless a test moves it: every request of a test falls into one rate-limit window.
  sandbox = await startSandbox({ randomWalk: false, book: deepBook, now: () => clock });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  clock = Date.now();
  sandbox.control.reset();
  creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

describe('Bybit /v5/trade: auth and ping (docs/v5/websocket/trade/guideline.mdx)', () => {
  it('auth answers retCode 0 with a connId; a second auth on the connection, with any key, is 20001', async () => {
    const socket = await open();
    const first = await socket.auth(creds, clock + 10_000);
    expect(first).toEqual({ retCode: 0, retMsg: 'OK', op: 'auth', connId: expect.stringMatching(/^[0-9a-f]{20}-[0-9a-z]+$/) });
    expect(await socket.auth(creds, clock + 10_000)).toEqual({ retCode: 20001, retMsg: 'Repeat auth', op: 'auth', connId: first.connId });
    const other = sandbox.control.createAccount({ exchange: 'bybit' });
    expect(await socket.auth(other, clock + 10_000)).toMatchObject({ retCode: 20001, op: 'auth' });
  });

  it('refuses a wrong signature (10004), an unknown key (10003), an expiry in the past or malformed args (10001); reqId is echoed', async () => {
    const socket = await open();
    expect(await socket.ask({ reqId: 'a1', op: 'auth', args: [creds.apiKey, clock + 10_000, 'f'.repeat(64)] })).toMatchObject({ reqId: 'a1', retCode: 10004, retMsg: 'Invalid sign' });
    expect(await socket.auth({ apiKey: 'nope', secret: creds.secret }, clock + 10_000)).toMatchObject({ retCode: 10003 });
    expect(await socket.auth(creds, clock - 1)).toMatchObject({ retCode: 10001 });
    expect(await socket.ask({ op: 'auth', args: [creds.apiKey] })).toMatchObject({ retCode: 10001 });
    // none of these authenticated the connection
    expect(await socket.auth(creds, clock + 10_000)).toMatchObject({ retCode: 0 });
  });

  it('ping answers pong with the server time', async () => {
    const socket = await open();
    expect(await socket.ask({ op: 'ping' })).toEqual({ retCode: 0, retMsg: 'OK', op: 'pong', data: [String(clock)], connId: expect.any(String) });
  });
});

describe('Bybit /v5/trade: order ops run the REST route', () => {
  it('order.create places the order and answers the documented frame with the account budget in its header', async () => {
    const socket = await authed();
    const answer = await socket.ask(orderFrame('order.create', market('ws-entry-1'), 'r-1', clock));
    expect(answer).toEqual({
      reqId: 'r-1',
      retCode: 0,
      retMsg: 'OK',
      op: 'order.create',
      data: { orderId: expect.any(String), orderLinkId: 'ws-entry-1' },
      retExtInfo: {},
      header: { 'X-Bapi-Limit': '10', 'X-Bapi-Limit-Status': '9', 'X-Bapi-Limit-Reset-Timestamp': String(clock + 1000), Traceid: expect.stringMatching(/^[0-9a-f]{32}$/), Timenow: String(clock) },
      connId: expect.any(String),
    });
    const order = sandbox.control.account(creds.uid).orders.find((o) => o.clientOrderId === 'ws-entry-1');
    expect(order).toMatchObject({ id: (answer.data as { orderId: string }).orderId, status: 'filled', filledQty: 0.001 });
    expect(sandbox.control.account(creds.uid).positions).toMatchObject([{ symbol: 'BTCUSDT', side: 'long', size: 0.001 }]);
  });

  it('the same validation as REST, with the same codes: qty off the step, a duplicate orderLinkId placed over REST, reduce-only with no position on that side', async () => {
    const socket = await authed();
    const viaRest = await bybitRaw(sandbox.url, creds, 'POST', '/v5/order/create', market('bad-step', { qty: '0.0015' }), { timestamp: clock });
    const viaSocket = await socket.ask(orderFrame('order.create', market('bad-step', { qty: '0.0015' }), undefined, clock));
    expect({ retCode: viaSocket.retCode, retMsg: viaSocket.retMsg }).toEqual({ retCode: viaRest.json().retCode, retMsg: viaRest.json().retMsg });
    expect(viaSocket).toMatchObject({ retCode: 10001, retMsg: 'Qty invalid', data: {} });

    expect((await bybitRaw(sandbox.url, creds, 'POST', '/v5/order/create', market('twice'), { timestamp: clock })).json()).toMatchObject({ retCode: 0 });
    expect(await socket.ask(orderFrame('order.create', market('twice'), undefined, clock))).toMatchObject({ retCode: 110072, retMsg: 'OrderLinkedID is duplicate' });
    expect(await socket.ask(orderFrame('order.create', market('ro', { reduceOnly: true }), undefined, clock))).toMatchObject({ retCode: 110017 });
    expect(sandbox.control.account(creds.uid).orders.map((o) => o.clientOrderId)).toEqual(['twice']);
  });

  it('order.cancel cancels an open conditional order by orderLinkId', async () => {
    const socket = await authed();
    const stop = market('cond-1', { triggerPrice: '61000', triggerDirection: 1 });
    expect(await socket.ask(orderFrame('order.create', stop, undefined, clock))).toMatchObject({ retCode: 0 });
    expect(await socket.ask(orderFrame('order.cancel', { category: 'linear', symbol: 'BTCUSDT', orderLinkId: 'cond-1' }, undefined, clock))).toMatchObject({ retCode: 0, data: { orderLinkId: 'cond-1' } });
    expect(sandbox.control.account(creds.uid).orders[0]).toMatchObject({ clientOrderId: 'cond-1', status: 'cancelled' });
  });

  it('refuses before auth (10003), a stale timestamp (10002), a duplicate reqId (20006), another category (10404), an unknown op (10404), two args (10001)', async () => {
    const socket = await open();
    expect(await socket.ask(orderFrame('order.create', market('x1'), 'q1', clock))).toMatchObject({ reqId: 'q1', retCode: 10003 });
    expect(await socket.auth(creds, clock + 10_000)).toMatchObject({ retCode: 0 });
    expect(await socket.ask(orderFrame('order.create', market('x2'), 'q2', clock - 6000))).toMatchObject({ retCode: 10002 });
    expect(await socket.ask(orderFrame('order.create', market('x3'), 'q2', clock))).toMatchObject({ reqId: 'q2', retCode: 20006, retMsg: 'reqId is duplicated' });
    expect(await socket.ask(orderFrame('order.create', { ...market('x4'), category: 'spot' }, 'q4', clock))).toMatchObject({ retCode: 10404 });
    expect(await socket.ask({ op: 'order.teleport', args: [market('x5')] })).toMatchObject({ retCode: 10404, op: 'order.teleport' });
    expect(await socket.ask({ ...orderFrame('order.create', market('x6'), 'q6', clock), args: [market('x6'), market('x7')] })).toMatchObject({ retCode: 10001 });
    expect(sandbox.control.account(creds.uid).orders).toEqual([]);
  });

  it('checks the key permission and IP whitelist on every order (10005, 10010)', async () => {
    const socket = await authed();
    sandbox.control.updateAccount(creds.uid, { permissions: { trade: false } });
    expect(await socket.ask(orderFrame('order.create', market('p1'), undefined, clock))).toMatchObject({ retCode: 10005 });
    sandbox.control.updateAccount(creds.uid, { permissions: { trade: true }, ips: ['10.1.2.3'] });
    expect(await socket.ask(orderFrame('order.create', market('p2'), undefined, clock))).toMatchObject({ retCode: 10010 });
    expect(sandbox.control.account(creds.uid).orders).toEqual([]);
  });
});

describe('Bybit /v5/trade: rate limits', () => {
  it('the per-account 10 orders/s is one counter for REST and WebSocket: 6 + 6 within a second leaves 2 refused with 10006', async () => {
    const socket = await authed();
    const rest = [];
    for (let i = 0; i < 6; i += 1) rest.push((await bybitRaw(sandbox.url, creds, 'POST', '/v5/order/create', market(`r${i}`), { timestamp: clock })).json().retCode);
    const ws = [];
    for (let i = 0; i < 6; i += 1) ws.push((await socket.ask(orderFrame('order.create', market(`w${i}`), undefined, clock))).retCode);
    expect(rest).toEqual([0, 0, 0, 0, 0, 0]);
    expect(ws).toEqual([0, 0, 0, 0, 10006, 10006]);
    expect(socket.frames.at(-1)).toMatchObject({ retMsg: 'Too many visits!', header: { 'X-Bapi-Limit': '10', 'X-Bapi-Limit-Status': '0' } });
    expect(sandbox.control.account(creds.uid).orders).toHaveLength(10);
    expect(sandbox.control.counters().rateLimitRejections.byAccount).toEqual({ [creds.uid]: 2 });
    clock += 1001;
    expect(await socket.ask(orderFrame('order.create', market('later'), undefined, clock))).toMatchObject({ retCode: 0 });
  });

  it('past 3000 order requests per second from one address: 10403, on every connection of that address', async () => {
    const first = await authed();
    const second = await authed(sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 }));
    const cancel = (i: number) => orderFrame('order.cancel', { category: 'linear', symbol: 'BTCUSDT', orderLinkId: `none-${i}` }, `c${i}`, clock);
    for (let i = 0; i < 3000; i += 1) first.send(cancel(i));
    await first.until(() => first.frames.length === 3001, 20_000);
    expect(first.frames.slice(1).filter((f) => f.retCode === 10403)).toEqual([]);
    expect(await second.ask(cancel(3000))).toMatchObject({ retCode: 10403, reqId: 'c3000' });
    expect(sandbox.control.counters().rateLimitRejections.byIp).toEqual({ '127.0.0.1': 1 });
    clock += 1001;
    expect(await second.ask(cancel(3001))).toMatchObject({ retCode: 110001 });
  }, 30_000);

  it('past 500 new connections per address in 5 minutes the upgrade is refused with HTTP 429; open ones keep working', async () => {
    const opened = await Promise.all(Array.from({ length: 500 }, () => open()));
    await expect(RawTradeSocket.open(sandbox.tradeSocketUrl)).rejects.toThrow('HTTP 429');
    expect(await opened[0]!.ask({ op: 'ping' })).toMatchObject({ op: 'pong' });
    expect(sandbox.control.counters().tradeSockets).toEqual({ opened: 500, open: 500, refusedByIp: { '127.0.0.1': 1 } });
    clock += 5 * 60_000;
    await expect(open()).resolves.toBeInstanceOf(RawTradeSocket);
  }, 30_000);
});

describe('Bybit /v5/trade: the new-connection limit as a start option (benchmarks)', () => {
  it('tradeConnectionsPerIp replaces 500 per 5 minutes', async () => {
    const tight = await startSandbox({ randomWalk: false, tradeConnectionsPerIp: { limit: 2, windowMs: 60_000 } });
    const opened: RawTradeSocket[] = [];
    try {
      opened.push(await RawTradeSocket.open(tight.tradeSocketUrl), await RawTradeSocket.open(tight.tradeSocketUrl));
      await expect(RawTradeSocket.open(tight.tradeSocketUrl)).rejects.toThrow('HTTP 429');
    } finally {
      for (const socket of opened) socket.close();
      await tight.close();
    }
  });
});

describe('Bybit /v5/trade: network conditions', () => {
  it('a one-way latency delays HTTP and WebSocket alike (request and answer each)', async () => {
    const socket = await authed();
    sandbox.control.setLatency(60);
    let started = performance.now();
    expect(await socket.ask({ op: 'ping' })).toMatchObject({ op: 'pong' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(119);
    started = performance.now();
    expect((await fetch(`${sandbox.url}/v5/market/time`)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(119);
    sandbox.control.setLatency(0);
  });

  it('an order is received when its request reached the exchange: read off the connection plus the one-way latency, before the checks', async () => {
    const socket = await authed();
    sandbox.control.setLatency(40);
    sandbox.control.setFaults([{ route: '/v5/order/create', latencyMs: 7 }]);
    // The clock stands still: every stamp taken while the request is handled is `clock`.
    expect(await socket.ask(orderFrame('order.create', market('arrive-ws'), 'w1', clock))).toMatchObject({ retCode: 0 });
    expect((await bybitRaw(sandbox.url, creds, 'POST', '/v5/order/create', market('arrive-rest'), { timestamp: clock })).json()).toMatchObject({ retCode: 0 });
    sandbox.control.setLatency(0);
    sandbox.control.setFaults([]);
    const stamps = sandbox.control.account(creds.uid).orders.map((order) => [order.clientOrderId, order.receivedAt - clock, order.createdAt - clock]);
    expect(stamps).toEqual([
      ['arrive-ws', 47, 0],
      ['arrive-rest', 47, 0],
    ]);
  });

  it('a fault held on order.create applies the order and never answers; dropping the socket cuts it', async () => {
    const socket = await authed();
    sandbox.control.setFaults([{ route: '/v5/order/create', method: 'WS', timeoutShare: 1, remaining: 1 }]);
    socket.send(orderFrame('order.create', market('held-1'), 'h1', clock));
    await socket.until(() => sandbox.control.account(creds.uid).orders.length === 1);
    expect(sandbox.control.dropTradeSockets(creds.uid)).toBe(1);
    await socket.until(() => socket.closed);
    expect(socket.frames).toHaveLength(1);
    expect(sandbox.control.account(creds.uid).orders[0]).toMatchObject({ clientOrderId: 'held-1', status: 'filled' });
  });

  it('a socket without frames from the client is cut after the idle time', async () => {
    const quick = await startSandbox({ randomWalk: false, tradeIdleMs: 150 });
    try {
      // Measured from before the connection is asked for: the server's idle timer starts later than that, never earlier.
      const started = performance.now();
      const socket = await RawTradeSocket.open(quick.tradeSocketUrl);
      await socket.until(() => socket.closed);
      expect(performance.now() - started).toBeGreaterThanOrEqual(149);
    } finally {
      await quick.close();
    }
  });
});
