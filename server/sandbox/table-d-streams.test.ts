import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelArg, RawBitgetSocket } from './bitget-ws/test-client';
import { RawPrivateSocket } from './bybit-private/test-client';
import type { Credentials } from './control';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bitgetRaw, bybitRaw } from './test-support';

/**
 * Table D's state changes on the private streams (README "Private streams"): a liquidation (the position's
 * orders cancelled, the takeover at the bankruptcy price), a funding settlement, a Bybit conditional order
 * cancelled at its trigger for short margin (D4), and positions valued on the mark price, not the last.
 */
const T = 1_700_000_000_000;
const SECONDS = T / 1000;
let sandbox: RunningSandbox;
const sockets: Array<RawPrivateSocket | RawBitgetSocket> = [];
const PRODUCT = { productType: 'USDT-FUTURES', marginCoin: 'USDT' };
type Row = Record<string, unknown>;

beforeAll(async () => {
  // The clock stands still: no funding interval ends by itself, every frame's time is T.
  sandbox = await startSandbox({ randomWalk: false, book: deepBook, now: () => T });
});
afterAll(async () => sandbox.close());
beforeEach(() => sandbox.control.reset());
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

async function bybitStream(creds: Credentials): Promise<RawPrivateSocket> {
  const socket = await RawPrivateSocket.open(sandbox.privateStreamUrl);
  sockets.push(socket);
  expect(await socket.auth(creds, T + 10_000)).toMatchObject({ success: true });
  expect(await socket.subscribe(['order', 'execution', 'position', 'wallet'])).toMatchObject({ success: true });
  return socket;
}

async function bitgetStream(creds: Credentials): Promise<RawBitgetSocket> {
  const socket = await RawBitgetSocket.open(sandbox.bitgetPrivateUrl);
  sockets.push(socket);
  expect(await socket.login(creds, SECONDS)).toEqual({ event: 'login', code: 0 });
  await socket.subscribe(['orders', 'orders-algo', 'positions', 'account']);
  return socket;
}

/** Everything pushed before this call has arrived once the pong that follows it has (one socket keeps its order). */
async function settled(socket: RawPrivateSocket | RawBitgetSocket): Promise<void> {
  const isPong = (frame: unknown) => frame === 'pong' || (typeof frame === 'object' && frame !== null && (frame as { op?: string }).op === 'pong');
  const pongs = socket.frames.filter(isPong).length;
  socket.send(socket instanceof RawBitgetSocket ? 'ping' : { op: 'ping' });
  await socket.until(() => socket.frames.filter(isPong).length > pongs);
}

async function bybit(creds: Credentials, method: 'GET' | 'POST', path: string, params: Record<string, unknown>): Promise<Row> {
  const answer = (await bybitRaw(sandbox.url, creds, method, path, { category: 'linear', ...params }, { timestamp: T })).json();
  expect(answer).toMatchObject({ retCode: 0 });
  return answer.result as Row;
}

async function bitget(creds: Credentials, method: 'GET' | 'POST', path: string, params: Record<string, unknown>): Promise<Row> {
  const answer = (await bitgetRaw(sandbox.url, creds, method, path, { symbol: 'BTCUSDT', ...PRODUCT, ...params }, { timestamp: T })).json();
  expect(answer).toMatchObject({ code: '00000' });
  return answer.data as Row;
}

describe('a liquidation on the private streams', () => {
  it('Bybit: the leg cancelled (CancelAllBeforeLiq), then the takeover: order, BustTrade execution, flat position, wallet; the mark price in the position frames', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000, marginMode: 'isolated' });
    await bybit(creds, 'POST', '/v5/order/create', { symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.1', orderLinkId: 'entry' });
    await bybit(creds, 'POST', '/v5/order/create', { symbol: 'BTCUSDT', side: 'Sell', orderType: 'Limit', qty: '0.05', price: '65000', reduceOnly: true, orderLinkId: 'tp-leg' });
    const socket = await bybitStream(creds);

    sandbox.control.setQuote('BTCUSDT', { mark: 54_300 }); // isolated 10x: liqPrice 54300, bustPrice 54000; the last price stays 60000
    await settled(socket);
    const timeline = socket.timeline();
    expect(timeline.map(([topic, data]) => [topic, data.orderStatus ?? data.execType ?? data.size ?? data.totalWalletBalance])).toEqual([
      ['order', 'Cancelled'],
      ['position', '0.1'],
      ['order', 'Filled'],
      ['execution', 'BustTrade'],
      ['position', '0'],
      ['wallet', '9396.7'],
    ]);
    const [cancelled, before, takeover, execution, after] = timeline.map(([, data]) => data) as [Row, Row, Row, Row, Row, Row];
    expect(cancelled).toMatchObject({ orderLinkId: 'tp-leg', cancelType: 'CancelAllBeforeLiq', cumExecQty: '0' });
    expect(before).toMatchObject({ side: 'Buy', markPrice: '54300', unrealisedPnl: '-570', liqPrice: '54300', bustPrice: '54000' });
    expect(takeover).toMatchObject({ createType: 'CreateByTakeOver_PassThrough', side: 'Sell', orderType: 'Market', reduceOnly: true, cumExecQty: '0.1', avgPrice: '54000', orderLinkId: '' });
    expect(execution).toMatchObject({
      orderId: takeover.orderId, createType: 'CreateByTakeOver_PassThrough', execType: 'BustTrade', side: 'Sell', execPrice: '54000', execQty: '0.1',
      execFee: '0', execPnl: '-600', closedSize: '0.1', markPrice: '54300', isMaker: false,
    });
    expect(after).toMatchObject({ side: '', size: '0', markPrice: '54300', seq: execution.seq });
    expect(socket.pushes('execution')[0]?.id).toBe(`${creds.uid}_BTCUSDT_${String(execution.seq)}`);
    // The stream and REST report the same execution.
    const list = (await bybit(creds, 'GET', '/v5/execution/list', { symbol: 'BTCUSDT', execType: 'BustTrade' })).list as Row[];
    expect(list.map((row) => [row.execId, row.seq])).toEqual([[execution.execId, execution.seq]]);
  });

  it('Bitget: the stop plan cancelled on orders-algo, then the liquidation order (enterPointSource SYS, tradeSide burst_sell_single), positions [], account', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000, marginMode: 'isolated' });
    await bitget(creds, 'POST', '/api/v2/mix/order/place-order', { marginMode: 'isolated', side: 'buy', orderType: 'market', size: '0.1', clientOid: 'entry' });
    await bitget(creds, 'POST', '/api/v2/mix/order/place-tpsl-order', { planType: 'pos_loss', triggerPrice: '53000', triggerType: 'mark_price', holdSide: 'buy', clientOid: 'deep-stop' });
    const socket = await bitgetStream(creds);

    sandbox.control.setQuote('BTCUSDT', { mark: 54_240 }); // isolated 10x, keepMarginRate 0.004: liquidationPrice 54240
    await settled(socket);
    const timeline = socket.timeline();
    expect(timeline.map(([channel, data]) => [channel, channel.startsWith('orders') ? data[0]?.status : data.length])).toEqual([
      ['orders-algo', 'cancelled'],
      ['orders', 'filled'],
      ['positions', 0],
      ['account', 1],
    ]);
    expect(timeline[0]?.[1][0]).toMatchObject({ clientOid: 'deep-stop', planType: 'psl' });
    const order = timeline[1]?.[1][0] as Row;
    expect(order).toMatchObject({
      enterPointSource: 'SYS', tradeSide: 'burst_sell_single', side: 'sell', reduceOnly: 'yes', orderType: 'market', clientOid: '', accBaseVolume: '0.1',
      priceAvg: '54000', fillPrice: '54000', baseVolume: '0.1', fillFee: '0', pnl: '-600', tradeScope: 'T',
    });
    expect(timeline[3]?.[1][0]).toMatchObject({ available: '9396.4', equity: '9396.4' });
    expect(socket.pushes('account')[0]?.arg).toEqual(channelArg('account'));
    // REST says the same: the order's orderSource, and the fill under the pushed tradeId.
    const history = (await bitget(creds, 'GET', '/api/v2/mix/order/orders-history', {})).entrustedList as Row[];
    expect(history[0]).toMatchObject({ orderId: order.orderId, orderSource: 'liquidation', enterPointSource: 'SYS', tradeSide: 'burst_sell_single' });
    const fills = (await bitget(creds, 'GET', '/api/v2/mix/order/fills', {})).fillList as Row[];
    expect(fills[0]).toMatchObject({ tradeId: order.tradeId, orderId: order.orderId, tradeSide: 'burst_sell_single', enterPointSource: 'SYS', profit: '-600' });
  });
});

describe('a funding settlement on the private streams', () => {
  it('Bybit: an execution with execType Funding (no order), the position and the wallet it changed; REST lists the same execution', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    await bybit(creds, 'POST', '/v5/order/create', { symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.1', orderLinkId: 'long' });
    const socket = await bybitStream(creds);
    sandbox.control.setFunding({ symbol: 'BTCUSDT', rate: 0.0005 });

    expect(sandbox.control.settleFunding()).toBe(1);
    await settled(socket);
    const timeline = socket.timeline();
    expect(timeline.map(([topic]) => topic)).toEqual(['execution', 'position', 'wallet']);
    const [execution, position, wallet] = timeline.map(([, data]) => data) as [Row, Row, Row];
    expect(execution).toMatchObject({
      execType: 'Funding', symbol: 'BTCUSDT', side: 'Buy', orderId: '', orderLinkId: '', execQty: '0.1', execPrice: '60000', execFee: '3', feeRate: '0.0005',
      execTime: String(T), orderType: 'UNKNOWN', stopOrderType: 'UNKNOWN', createType: '', closedSize: '0', markPrice: '60000',
    });
    // The entry's fee (3.3) and the funding (3) are realised.
    expect(position).toMatchObject({ size: '0.1', curRealisedPnl: '-6.3', cumRealisedPnl: '-6.3' });
    expect(wallet).toMatchObject({ totalWalletBalance: '9993.7' });
    const list = (await bybit(creds, 'GET', '/v5/execution/list', { execType: 'Funding' })).list as Row[];
    expect(list.map((row) => [row.execId, row.execFee])).toEqual([[execution.execId, '3']]);
  });

  it('Bitget: positions and account (a short receives at a positive rate)', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    await bitget(creds, 'POST', '/api/v2/mix/order/place-order', { marginMode: 'crossed', side: 'sell', orderType: 'market', size: '0.1', clientOid: 'short' });
    const socket = await bitgetStream(creds);
    sandbox.control.setFunding({ symbol: 'BTCUSDT', rate: 0.0005 });

    expect(sandbox.control.settleFunding()).toBe(1);
    await settled(socket);
    expect(socket.timeline().map(([channel]) => channel)).toEqual(['positions', 'account']);
    // 10,000 - 3.6 (taker fee) + 3 (funding received)
    expect(socket.pushes('account')[0]?.data?.[0]).toMatchObject({ available: '9999.4' });
  });
});

describe('Bybit D4 on the private streams', () => {
  it('a stop triggered with the margin short is pushed as cancelled (with its position), never as triggered or filled', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    await bybit(creds, 'POST', '/v5/order/create', { symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.1', orderLinkId: 'long' });
    await bybit(creds, 'POST', '/v5/order/create', {
      symbol: 'BTCUSDT', side: 'Sell', orderType: 'Market', qty: '0.1', triggerPrice: '59000', triggerDirection: 2, reduceOnly: true, orderLinkId: 'stop',
    });
    const socket = await bybitStream(creds);
    sandbox.control.updateAccount(creds.uid, { marginShort: true });

    sandbox.control.setPrice('BTCUSDT', 58_900);
    await settled(socket);
    const timeline = socket.timeline();
    expect(timeline.map(([topic, data]) => [topic, data.orderStatus ?? data.size])).toEqual([
      ['order', 'Cancelled'],
      ['position', '0.1'],
    ]);
    expect(timeline[0]?.[1]).toMatchObject({ orderLinkId: 'stop', stopOrderType: 'Stop', triggerPrice: '59000', closeOnTrigger: false, cumExecQty: '0', leavesQty: '0' });
  });
});

describe('positions on the mark price in the private streams', () => {
  it('Bybit and Bitget: a fill at the last price (60000) pushes a position valued on the mark (60500)', async () => {
    sandbox.control.setQuote('BTCUSDT', { mark: 60_500 });
    const bybitCreds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const bybitSocket = await bybitStream(bybitCreds);
    await bybit(bybitCreds, 'POST', '/v5/order/create', { symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.01', orderLinkId: 'long' });
    await settled(bybitSocket);
    expect(bybitSocket.pushes('execution')[0]?.data?.[0]).toMatchObject({ execPrice: '60000', markPrice: '60500' });
    expect(bybitSocket.pushes('position')[0]?.data?.[0]).toMatchObject({ entryPrice: '60000', markPrice: '60500', unrealisedPnl: '5' });

    const bitgetCreds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const bitgetSocket = await bitgetStream(bitgetCreds);
    await bitget(bitgetCreds, 'POST', '/api/v2/mix/order/place-order', { marginMode: 'crossed', side: 'buy', orderType: 'market', size: '0.01', clientOid: 'long' });
    await settled(bitgetSocket);
    expect(bitgetSocket.pushes('orders')[0]?.data?.[0]).toMatchObject({ fillPrice: '60000' });
    expect(bitgetSocket.pushes('positions')[0]?.data?.[0]).toMatchObject({ openPriceAvg: '60000', markPrice: '60500', unrealizedPL: '5' });
  });
});
