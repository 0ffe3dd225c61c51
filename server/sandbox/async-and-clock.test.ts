import ccxt from 'ccxt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Credentials } from './control';
import { orderFrame, RawTradeSocket } from './bybit-ws/test-client';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bitgetRaw, bybitClient, bybitRaw } from './test-support';

/**
 * D6: Bybit acknowledges a create before the order is visible (create-order.mdx: "This request is asynchronous").
 * D10: a restarting trade service answers 10019 on that connection; the exchange's clock is the one that counts.
 */
const S = 'BTC/USDT:USDT';
let sandbox: RunningSandbox;
let creds: Credentials;
/** The sandbox's base clock runs with the wall clock, `ahead` of it; the exchange's clock adds the control's offset. */
let ahead = 0;
/** The client's clock: what ccxt and an unsynchronised client sign with. */
const client = () => Date.now();
/** The exchange's clock: what a client that synchronised with /v5/market/time signs with. */
const exchange = () => sandbox.control.clock().now;
const sockets: RawTradeSocket[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, book: deepBook, now: () => Date.now() + ahead });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  ahead = 0;
  sandbox.control.reset();
  creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

async function authed(): Promise<RawTradeSocket> {
  const socket = await RawTradeSocket.open(sandbox.tradeSocketUrl);
  sockets.push(socket);
  expect(await socket.auth(creds, exchange() + 10_000)).toMatchObject({ retCode: 0 });
  return socket;
}

const market = (linkId: string) => ({ category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.001', orderLinkId: linkId });

describe('D6: an acknowledged order not yet visible (fault hideOrderMs)', () => {
  it('REST: the create answers an orderId, order/realtime by orderLinkId finds nothing, a retry is 110072, and the order appears later', async () => {
    sandbox.control.setFaults([{ exchange: 'bybit', route: '/v5/order/create', account: creds.uid, hideOrderMs: 60_000, remaining: 1 }]);
    const ex = bybitClient(sandbox.url, creds);
    const created = await ex.createOrder(S, 'market', 'buy', 0.001, undefined, { clientOrderId: 'slow' });
    expect(created.id).toMatch(/-/);
    const lookup = () => bybitRaw(sandbox.url, creds, 'GET', '/v5/order/realtime', { category: 'linear', symbol: 'BTCUSDT', orderLinkId: 'slow' }, { timestamp: exchange() });
    expect((await lookup()).json()).toMatchObject({ retCode: 0, result: { list: [] } });
    await expect(ex.createOrder(S, 'market', 'buy', 0.001, undefined, { clientOrderId: 'slow' })).rejects.toBeInstanceOf(ccxt.DuplicateOrderId);
    expect((await lookup()).json()).toMatchObject({ result: { list: [] } });
    ahead += 60_000;
    expect((await lookup()).json()).toMatchObject({ result: { list: [{ orderId: created.id, orderLinkId: 'slow', orderStatus: 'Filled' }] } });
  });

  it('WebSocket: the same for an order.create over /v5/trade (method WS)', async () => {
    sandbox.control.setFaults([{ exchange: 'bybit', method: 'WS', route: '/v5/order/create', hideOrderMs: 60_000 }]);
    const socket = await authed();
    expect(await socket.ask(orderFrame('order.create', market('ws-slow'), 'r1', exchange()))).toMatchObject({ retCode: 0, data: { orderLinkId: 'ws-slow' } });
    const lookup = async () => ((await bybitRaw(sandbox.url, creds, 'GET', '/v5/order/realtime', { category: 'linear', symbol: 'BTCUSDT', orderLinkId: 'ws-slow' }, { timestamp: exchange() })).json() as { result: { list: unknown[] } }).result.list;
    expect(await lookup()).toEqual([]);
    ahead += 60_000;
    expect(await lookup()).toHaveLength(1);
  });
});

describe('D10: the trade service restarting (10019)', () => {
  const restartText = 'ws trade service is restarting, do not accept new request, but the request in the process is not affected. You can build new connection to be routed to normal service';

  it('after the control restarts it, the connection answers every order op 10019; a new connection accepts orders', async () => {
    const socket = await authed();
    expect(await socket.ask(orderFrame('order.create', market('before'), 'r1', exchange()))).toMatchObject({ retCode: 0 });
    expect(sandbox.control.restartTradeSockets(creds.uid)).toBe(1);
    expect(await socket.ask(orderFrame('order.create', market('during'), 'r2', exchange()))).toEqual({ reqId: 'r2', retCode: 10019, retMsg: restartText, op: 'order.create', data: {}, retExtInfo: {}, connId: expect.any(String) });
    expect(await socket.ask(orderFrame('order.create', market('during-2'), 'r3', exchange()))).toMatchObject({ retCode: 10019 });
    const fresh = await authed();
    expect(await fresh.ask(orderFrame('order.create', market('after'), 'r4', exchange()))).toMatchObject({ retCode: 0 });
    expect(sandbox.control.account(creds.uid).orders.map((order) => order.clientOrderId)).toEqual(['before', 'after']);
  });

  it('a 10019 fault on an order op leaves that connection restarting too', async () => {
    const restart = await fetch(`${sandbox.url}/control/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-sandbox-control': sandbox.controlToken },
      body: JSON.stringify({ rules: [{ method: 'WS', reject: { code: '10019', msg: restartText }, remaining: 1 }] }),
    });
    expect(restart.status).toBe(200);
    const socket = await authed();
    expect(await socket.ask(orderFrame('order.create', market('x'), 'r1', exchange()))).toMatchObject({ retCode: 10019 });
    expect(await socket.ask(orderFrame('order.create', market('y'), 'r2', exchange()))).toMatchObject({ retCode: 10019, retMsg: restartText });
    expect(sandbox.control.account(creds.uid).orders).toEqual([]);
  });
});

describe('D10: the exchange clock', () => {
  it('with the exchange 10 s ahead, a request signed on the client clock is refused (Bybit 10002, Bitget past 30 s 40008); signed on the exchange time it passes', async () => {
    const before = Date.now();
    expect(sandbox.control.setClockOffset(10_000).offsetMs).toBe(10_000);
    const served = (await (await fetch(`${sandbox.url}/v5/market/time`)).json()) as { result: { timeSecond: string } };
    expect(Number(served.result.timeSecond) * 1000).toBeGreaterThanOrEqual(Math.floor((before + 10_000) / 1000) * 1000);
    expect(Number(served.result.timeSecond) * 1000).toBeLessThanOrEqual(Date.now() + 10_000);
    const wallet = (timestamp: number) => bybitRaw(sandbox.url, creds, 'GET', '/v5/account/wallet-balance', { accountType: 'UNIFIED' }, { timestamp });
    expect((await wallet(client())).json()).toMatchObject({ retCode: 10002 });
    expect((await wallet(exchange())).json()).toMatchObject({ retCode: 0 });
    const bitget = sandbox.control.createAccount({ exchange: 'bitget', balance: 10 });
    const accounts = (timestamp: number) => bitgetRaw(sandbox.url, bitget, 'GET', '/api/v2/mix/account/accounts', { productType: 'USDT-FUTURES' }, { timestamp });
    expect((await accounts(client())).status).toBe(200); // 10 s apart: inside Bitget's 30 s
    sandbox.control.setClockOffset(40_000);
    expect((await accounts(client())).json()).toMatchObject({ code: '40008', msg: 'Request timestamp expired' });
    expect((await accounts(exchange())).status).toBe(200);
  });

  it('the trade socket checks auth expires and each order header timestamp on the exchange clock', async () => {
    sandbox.control.setClockOffset(20_000);
    const socket = await RawTradeSocket.open(sandbox.tradeSocketUrl);
    sockets.push(socket);
    expect(await socket.auth(creds, client() + 10_000)).toMatchObject({ retCode: 10001 }); // expired on the exchange clock
    expect(await socket.auth(creds, exchange() + 10_000)).toMatchObject({ retCode: 0 });
    expect(await socket.ask(orderFrame('order.create', market('old'), 'r1', client()))).toMatchObject({ retCode: 10002 });
    expect(await socket.ask(orderFrame('order.create', market('synced'), 'r2', exchange()))).toMatchObject({ retCode: 0 });
  });
});
