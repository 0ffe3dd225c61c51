import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { timesOf } from './bitget-ws/server';
import { channelArg, loginFrame, RawBitgetSocket, type BitgetFrame } from './bitget-ws/test-client';
import type { Credentials } from './control';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { formatNumber } from './markets';
import { bitgetRaw } from './test-support';

const T = 1_700_000_000_000;
const SECONDS = T / 1000;
let clock = T;
let sandbox: RunningSandbox;
let creds: Credentials;
const sockets: RawBitgetSocket[] = [];
const all = ['orders', 'orders-algo', 'positions', 'account'];
const PRODUCT = { productType: 'USDT-FUTURES', marginCoin: 'USDT', marginMode: 'crossed' };

async function open(url = sandbox.bitgetPrivateUrl): Promise<RawBitgetSocket> {
  const socket = await RawBitgetSocket.open(url);
  sockets.push(socket);
  return socket;
}

async function stream(channels = all, account: Credentials = creds): Promise<RawBitgetSocket> {
  const socket = await open();
  expect(await socket.login(account, SECONDS)).toEqual({ event: 'login', code: 0 });
  expect((await socket.subscribe(channels)).map((answer) => answer.event)).toEqual(channels.map(() => 'subscribe'));
  return socket;
}

/** Everything pushed before this call has arrived once the pong that follows it has. */
async function settle(socket: RawBitgetSocket): Promise<void> {
  const pongs = socket.frames.filter((frame) => frame === 'pong').length;
  socket.send('ping');
  await socket.until(() => socket.frames.filter((frame) => frame === 'pong').length > pongs);
}

async function rest(path: string, body: Record<string, unknown>, account: Credentials = creds): Promise<Record<string, string>> {
  const answer = (await bitgetRaw(sandbox.url, account, 'POST', path, { symbol: 'BTCUSDT', ...PRODUCT, ...body }, { timestamp: clock })).json();
  expect(answer).toMatchObject({ code: '00000' });
  return answer.data as Record<string, string>;
}

const market = (side: 'buy' | 'sell', size: string, clientOid: string, extra: Record<string, unknown> = {}) =>
  rest('/api/v2/mix/order/place-order', { side, orderType: 'market', size, clientOid, ...extra });

/** Each push as [channel, the first data item's status (orders, orders-algo) or the data length (positions, account)]. */
function outline(socket: RawBitgetSocket, from = 0): Array<[string, unknown]> {
  return socket.timeline().slice(from).map(([channel, data]) => [channel, channel.startsWith('orders') ? data[0]?.status : data.length]);
}

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, book: deepBook, now: () => clock });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  clock = T;
  sandbox.control.reset();
  creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

describe('Bitget /v2/ws/private: login and ping (api-doc/common/websocket-intro)', () => {
  it('login answers {event:"login", code:0}; a second login on the connection is 30005', async () => {
    const socket = await open();
    expect(await socket.login(creds, SECONDS)).toEqual({ event: 'login', code: 0 });
    expect(await socket.login(creds, SECONDS)).toEqual({ event: 'error', code: 30005, msg: 'Login failed' });
  });

  it('refuses with Bitget codes: 30011 key, 30012 passphrase, 30013 timestamp, 30014 expired, 30015 sign, 30016 args; none logs in', async () => {
    const socket = await open();
    const error = (code: number, msg: string) => ({ event: 'error', code, msg });
    expect(await socket.login({ ...creds, apiKey: 'bg_nope' }, SECONDS)).toEqual(error(30011, 'Invalid ACCESS_KEY'));
    const bybit = sandbox.control.createAccount({ exchange: 'bybit' });
    expect(await socket.login({ ...bybit, passphrase: 'whatever' }, SECONDS)).toEqual(error(30011, 'Invalid ACCESS_KEY'));
    expect(await socket.login({ ...creds, passphrase: 'wrong-pass' }, SECONDS)).toEqual(error(30012, 'Invalid ACCESS_PASSPHRASE'));
    expect(await socket.login(creds, T)).toEqual(error(30013, 'Invalid ACCESS_TIMESTAMP'));
    expect(await socket.login(creds, SECONDS - 31)).toEqual(error(30014, 'Request timestamp expired'));
    expect(await socket.login(creds, SECONDS + 31)).toEqual(error(30014, 'Request timestamp expired'));
    const forged = loginFrame(creds, SECONDS) as { args: Array<Record<string, string>> };
    expect(await socket.ask({ op: 'login', args: [{ ...forged.args[0], sign: 'AAAA' }] })).toEqual(error(30015, 'Invalid sign'));
    expect(await socket.ask({ op: 'login', args: { apiKey: creds.apiKey } })).toEqual(error(30016, 'Param error'));
    expect(await socket.ask({ op: 'subscribe', args: [channelArg('orders')] })).toEqual({ event: 'error', arg: channelArg('orders'), code: 30004, msg: 'User needs to log in' });
    expect(await socket.login(creds, SECONDS - 30)).toEqual({ event: 'login', code: 0 });
  });

  it('a key bound to other addresses cannot log in', async () => {
    const bound = sandbox.control.createAccount({ exchange: 'bitget', ips: ['10.1.2.3'] });
    expect(await (await open()).login(bound, SECONDS)).toEqual({ event: 'error', code: 30005, msg: 'Login failed' });
  });

  it('the string "ping" is answered "pong"; an unknown op is 30003, a frame that is neither is 30002', async () => {
    const socket = await open();
    expect(await socket.ask('ping')).toBe('pong');
    expect(await socket.ask({ op: 'trade', args: [] })).toEqual({ event: 'error', code: 30003, msg: 'Invalid op' });
    expect(await socket.ask('hello')).toEqual({ event: 'error', code: 30002, msg: 'Illegal request' });
  });
});

describe('Bitget /v2/ws/private: subscribe (api-doc/contract/websocket/private/*)', () => {
  it('acknowledges each arg; refuses what Bitget does not serve with 30001 and its text', async () => {
    const socket = await open();
    await socket.login(creds, SECONDS);
    expect(await socket.subscribe(all)).toEqual(all.map((channel) => ({ event: 'subscribe', arg: channelArg(channel) })));
    const notFound = (arg: Record<string, string>, scope: string) => ({ event: 'error', arg, code: 30001, msg: `instType:${arg.instType},channel:${arg.channel},${scope} doesn't exist` });
    const cases: Array<[Record<string, string>, string]> = [
      [{ instType: 'USDT-FUTURES', channel: 'positions', instId: 'BTCUSDT' }, 'instId:BTCUSDT'],
      [{ instType: 'USDT-FUTURES', channel: 'account', instId: 'default' }, 'instId:default'],
      [{ instType: 'SPOT', channel: 'orders', instId: 'default' }, 'instId:default'],
      [{ instType: 'USDT-FUTURES', channel: 'fill', instId: 'default' }, 'instId:default'],
      [{ instType: 'USDT-FUTURES', channel: 'orders', instId: 'NOPEUSDT' }, 'instId:NOPEUSDT'],
    ];
    for (const [arg, scope] of cases) expect(await socket.ask({ op: 'subscribe', args: [arg] })).toEqual(notFound(arg, scope));
  });

  it('orders of one symbol only get that symbol; unsubscribe is acknowledged and stops the pushes', async () => {
    const socket = await open();
    await socket.login(creds, SECONDS);
    const eth = channelArg('orders', 'ETHUSDT');
    expect(await socket.ask({ op: 'subscribe', args: [eth] })).toEqual({ event: 'subscribe', arg: eth });
    await market('buy', '0.01', 'btc-1');
    await rest('/api/v2/mix/order/place-order', { symbol: 'ETHUSDT', side: 'buy', orderType: 'market', size: '0.1', clientOid: 'eth-1' });
    await settle(socket);
    expect(socket.pushes('orders').map((frame) => [frame.arg, frame.data?.[0]?.clientOid])).toEqual([[eth, 'eth-1']]);
    expect(await socket.ask({ op: 'unsubscribe', args: [eth] })).toEqual({ event: 'unsubscribe', arg: eth });
    await rest('/api/v2/mix/order/place-order', { symbol: 'ETHUSDT', side: 'buy', orderType: 'market', size: '0.1', clientOid: 'eth-2' });
    await settle(socket);
    expect(socket.pushes('orders')).toHaveLength(1);
  });
});

describe('Bitget /v2/ws/private: frames of real orders', () => {
  it('a market entry with a preset stop: orders (filled, with the fill), positions, account, then the stop on orders-algo', async () => {
    const socket = await stream();
    const { orderId } = await market('buy', '0.01', 'fill-1', { presetStopLossPrice: '55000' });
    await settle(socket);
    expect(outline(socket)).toEqual([['orders', 'filled'], ['positions', 1], ['account', 1], ['orders-algo', 'live']]);
    const [orders, positions, account, algo] = socket.frames.filter((frame): frame is BitgetFrame => typeof frame !== 'string' && frame.action !== undefined);
    expect(orders).toEqual({ action: 'snapshot', arg: channelArg('orders'), data: [filledOrder(String(orderId))], ts: T });
    expect(positions).toEqual({ action: 'snapshot', arg: channelArg('positions'), data: [longPosition()], ts: T });
    expect(account).toEqual({ action: 'snapshot', arg: channelArg('account'), data: [accountAfterFee()], ts: T });
    expect(algo?.data).toEqual([stopPlan(String(algo?.data?.[0]?.orderId))]);
  });

  it('a resting limit order is live with a positions push; its cancel is cancelled with another', async () => {
    const socket = await stream(['orders', 'positions']);
    const { orderId } = await rest('/api/v2/mix/order/place-order', { side: 'buy', orderType: 'limit', price: '59000', size: '0.01', clientOid: 'rest-1' });
    await rest('/api/v2/mix/order/cancel-order', { orderId });
    await settle(socket);
    expect(outline(socket)).toEqual([['orders', 'live'], ['positions', 0], ['orders', 'cancelled'], ['positions', 0]]);
    expect(socket.pushes('orders')[0]?.data?.[0]).toMatchObject({ orderId, clientOid: 'rest-1', price: '59000', accBaseVolume: '0', priceAvg: '', orderType: 'limit', force: 'gtc' });
    expect(socket.pushes('orders')[0]?.data?.[0]).not.toHaveProperty('fillPrice');
  });

  it('a partial fill on a thin book: partially_filled with the fill, positions, account, then cancelled with what filled', async () => {
    sandbox.control.setBook({ levels: 1, levelSize: 0.004, spread: 0, step: 0 }, 'BTCUSDT');
    const socket = await stream();
    const { orderId } = await market('buy', '0.01', 'thin-1');
    await settle(socket);
    expect(outline(socket)).toEqual([['orders', 'partially_filled'], ['positions', 1], ['account', 1], ['orders', 'cancelled'], ['positions', 1]]);
    const [partial, cancelled] = socket.pushes('orders').map((frame) => frame.data?.[0]);
    expect(partial).toMatchObject({ orderId, accBaseVolume: '0.004', baseVolume: '0.004', fillPrice: '60000', fillFee: '-0.144', priceAvg: '60000' });
    expect(cancelled).toMatchObject({ orderId, accBaseVolume: '0.004', size: '0.01', feeDetail: [{ feeCoin: 'USDT', fee: '-0.144' }] });
    expect(cancelled).not.toHaveProperty('fillPrice');
    expect(socket.pushes('positions')[0]?.data?.[0]).toMatchObject({ total: '0.004', openPriceAvg: '60000' });
  });

  it('a trigger plan: live, then executed when the price crosses, and its order (a new id) filled on orders', async () => {
    const socket = await stream();
    const plan = await rest('/api/v2/mix/order/place-plan-order', { planType: 'normal_plan', side: 'buy', orderType: 'market', size: '0.01', triggerPrice: '61000', triggerType: 'mark_price', clientOid: 'plan-1' });
    await settle(socket);
    expect(outline(socket)).toEqual([['orders-algo', 'live']]);
    expect(socket.pushes('orders-algo')[0]?.data?.[0]).toMatchObject({ orderId: plan.orderId, clientOid: 'plan-1', planType: 'pl', triggerPrice: '61000', triggerType: 'mark_price', size: '0.01', triggerTime: '' });
    sandbox.control.setPrice('BTCUSDT', 61_000);
    await settle(socket);
    expect(outline(socket, 1)).toEqual([['orders-algo', 'executed'], ['orders', 'filled'], ['positions', 1], ['account', 1]]);
    expect(socket.pushes('orders-algo')[1]?.data?.[0]).toMatchObject({ orderId: plan.orderId, planType: 'pl', triggerTime: String(T) });
    const executed = socket.pushes('orders')[0]?.data?.[0];
    expect(executed).toMatchObject({ accBaseVolume: '0.01', fillPrice: '61000', side: 'buy', reduceOnly: 'no' });
    expect(executed?.orderId).not.toBe(plan.orderId);
    expect(executed?.clientOid).toBe(executed?.orderId);
  });

  it('a position closed by its take-profit: executed ptp, the close filled with its pnl, positions [], account; the stop cancelled', async () => {
    const socket = await stream();
    await market('buy', '0.01', 'tp-entry', { presetStopSurplusPrice: '61000', presetStopLossPrice: '58000' });
    await settle(socket);
    const before = socket.timeline().length;
    sandbox.control.setPrice('BTCUSDT', 61_000);
    await settle(socket);
    expect(outline(socket, before)).toEqual([['orders-algo', 'executed'], ['orders', 'filled'], ['positions', 0], ['account', 1], ['orders-algo', 'cancelled']]);
    const algo = socket.pushes('orders-algo').slice(-2).map((frame) => frame.data?.[0]);
    expect(algo.map((plan) => plan?.planType)).toEqual(['ptp', 'psl']);
    expect(socket.pushes('orders').at(-1)?.data?.[0]).toMatchObject({ side: 'sell', reduceOnly: 'yes', fillPrice: '61000', pnl: '10', fillFee: formatNumber(-0.366), totalProfits: formatNumber(10 - 0.366) });
    expect(socket.pushes('account').at(-1)?.data?.[0]).toMatchObject({ available: formatNumber(10_000 - 0.36 + 10 - 0.366), unrealizedPL: '0' });
  });

  it('modify-tpsl-order, leverage and a transfer push orders-algo, positions and account', async () => {
    const socket = await stream();
    await market('buy', '0.01', 'm-entry', { presetStopLossPrice: '58000' });
    await settle(socket);
    const before = socket.timeline().length;
    const stop = socket.pushes('orders-algo')[0]?.data?.[0]?.orderId;
    await rest('/api/v2/mix/order/modify-tpsl-order', { orderId: stop, triggerPrice: '58500', size: '' });
    await rest('/api/v2/mix/account/set-leverage', { leverage: '5' });
    sandbox.control.fund(creds.uid, 100);
    await settle(socket);
    const after = socket.timeline().slice(before);
    expect(after.map(([channel, data]) => [channel, data[0]?.triggerPrice ?? data[0]?.leverage ?? data[0]?.available])).toEqual([
      ['orders-algo', '58500'],
      ['positions', 5],
      ['account', formatNumber(10_100 - 0.36)],
    ]);
  });
});

describe('Bitget /v2/ws/private: ceilings and keepalive', () => {
  it('an 11th message within a second is 30007 and the connection is closed', async () => {
    const socket = await open();
    for (let i = 0; i < 10; i += 1) socket.send('ping');
    await socket.until(() => socket.frames.length === 10);
    socket.send('ping');
    await socket.until(() => socket.closed);
    expect(socket.frames.at(-1)).toEqual({ event: 'error', code: 30007, msg: 'Request over limit,connection close' });
    expect(socket.closeCode).toBe(1008);
  });

  it('channels per connection and subscribe requests per hour are counted: past them 30006', async () => {
    const tight = await startSandbox({ randomWalk: false, now: () => clock, bitgetStreamLimits: { channelsPerConnection: 2, subscribeRequestsPerConnection: { limit: 3, windowMs: 3_600_000 } } });
    try {
      const account = tight.control.createAccount({ exchange: 'bitget' });
      const socket = await RawBitgetSocket.open(tight.bitgetPrivateUrl);
      sockets.push(socket);
      await socket.login(account, SECONDS);
      expect(await socket.subscribe(['orders', 'positions', 'account'])).toEqual([
        { event: 'subscribe', arg: channelArg('orders') },
        { event: 'subscribe', arg: channelArg('positions') },
        { event: 'error', arg: channelArg('account'), code: 30006, msg: 'Request too many' },
      ]);
      expect(await socket.subscribe(['orders'])).toEqual([{ event: 'subscribe', arg: channelArg('orders') }]);
      expect(await socket.subscribe(['orders'])).toEqual([{ event: 'subscribe', arg: channelArg('orders') }]);
      expect(await socket.subscribe(['orders'])).toEqual([{ event: 'error', code: 30006, msg: 'Request too many' }]);
    } finally {
      await tight.close();
    }
  });

  it('connections open per address and new connections per window are capped: past them, HTTP 429', async () => {
    const tight = await startSandbox({ randomWalk: false, now: () => clock, bitgetStreamLimits: { connectionsPerIp: 2, newConnectionsPerIp: { limit: 3, windowMs: 60_000 } } });
    try {
      const first = await RawBitgetSocket.open(tight.bitgetPrivateUrl);
      const second = await RawBitgetSocket.open(tight.bitgetPrivateUrl);
      await expect(RawBitgetSocket.open(tight.bitgetPrivateUrl)).rejects.toThrow('HTTP 429');
      first.close();
      await first.until(() => tight.control.counters().privateStreams.open.bitget === 1);
      const third = await RawBitgetSocket.open(tight.bitgetPrivateUrl);
      third.close();
      second.close();
      await second.until(() => tight.control.counters().privateStreams.open.bitget === 0);
      await expect(RawBitgetSocket.open(tight.bitgetPrivateUrl)).rejects.toThrow('HTTP 429');
      expect(tight.control.counters().privateStreams).toEqual({ opened: { bybit: 0, bitget: 3 }, open: { bybit: 0, bitget: 0 }, refusedByAddress: { 'bitget:127.0.0.1': 2 } });
    } finally {
      await tight.close();
    }
  });

  it('keepalive: 30 s without "ping" or without a subscription cut the connection (strict); 2 minutes and no deadline otherwise', async () => {
    const strict = { ...sandbox.control.strictness() };
    const limits = { connectionsPerIp: 100, newConnectionsPerIp: { limit: 1, windowMs: 1 }, messagesPerConnection: { limit: 1, windowMs: 1 }, subscribeRequestsPerConnection: { limit: 1, windowMs: 1 }, channelsPerConnection: 1, maxLifetimeMs: 86_400_000 };
    expect(timesOf(strict.bitgetStreamKeepalive30s, limits)).toEqual({ pingTimeoutMs: 30_000, subscribeTimeoutMs: 30_000, maxLifetimeMs: 86_400_000 });
    expect(timesOf(false, limits)).toEqual({ pingTimeoutMs: 120_000, subscribeTimeoutMs: undefined, maxLifetimeMs: 86_400_000 });
    const quick = await startSandbox({ randomWalk: false, bitgetStreamLimits: { pingTimeoutMs: 150, subscribeTimeoutMs: 10_000 } });
    try {
      const started = performance.now();
      const socket = await RawBitgetSocket.open(quick.bitgetPrivateUrl);
      await socket.until(() => socket.closed);
      expect(performance.now() - started).toBeGreaterThanOrEqual(149);
    } finally {
      await quick.close();
    }
  });
});

/** The orders push of a 0.01 BTC market buy filled at 60,000 (taker fee 0.06 %: 0.36 USDT) with a preset stop. */
function filledOrder(orderId: string): Record<string, unknown> {
  return {
    instId: 'BTCUSDT', orderId, clientOid: 'fill-1', size: '0.01', price: '0', priceAvg: '60000', status: 'filled', side: 'buy', force: 'gtc', posSide: 'net',
    tradeSide: 'buy_single', posMode: 'one_way_mode', marginCoin: 'USDT', marginMode: 'crossed', orderType: 'market', leverage: '10', reduceOnly: 'no',
    enterPointSource: 'API', accBaseVolume: '0.01', notionalUsd: '600', feeDetail: [{ feeCoin: 'USDT', fee: '-0.36' }], totalProfits: '0',
    presetStopSurplusPrice: '', presetStopLossPrice: '55000', cancelReason: '', stpMode: 'none', cTime: String(T), uTime: String(T),
    tradeId: expect.stringMatching(/^\d+$/), baseVolume: '0.01', fillPrice: '60000', fillFee: '-0.36', fillFeeCoin: 'USDT', fillNotionalUsd: '600',
    fillTime: String(T), tradeScope: 'T', pnl: '0',
  };
}

/** 0.01 BTC long at 60,000, cross margin on a 10,000 USDT wallet: no positive mark price liquidates it (liquidationPrice "0"). */
function longPosition(): Record<string, unknown> {
  return {
    posId: `${T}0`, instId: 'BTCUSDT', marginCoin: 'USDT', marginSize: '60', marginMode: 'crossed', holdSide: 'long', posMode: 'one_way_mode', total: '0.01',
    available: '0.01', frozen: '0', openPriceAvg: '60000', leverage: 10, achievedProfits: '-0.36', unrealizedPL: '0', unrealizedPLR: '0',
    liquidationPrice: '0', keepMarginRate: '0.004', marginRate: '0.01', breakEvenPrice: '60000', totalFee: '-0.36', deductedFee: '0', markPrice: '60000',
    autoMargin: 'off', cTime: String(T), uTime: String(T),
  };
}

function accountAfterFee(): Record<string, unknown> {
  return { marginCoin: 'USDT', frozen: '0', available: '9999.64', maxOpenPosAvailable: '9939.64', maxTransferOut: '9939.64', equity: '9999.64', usdtEquity: '9999.64', crossedRiskRate: '0', unrealizedPL: '0' };
}

function stopPlan(orderId: string): Record<string, unknown> {
  return {
    instId: 'BTCUSDT', orderId, clientOid: '', triggerPrice: '55000', triggerType: 'mark_price', triggerTime: '', planType: 'psl', price: '0', executePrice: '0',
    size: '0', actualSize: '0', orderType: 'market', side: 'sell', tradeSide: 'sell_single', posSide: 'net', marginCoin: 'USDT', marginMode: 'crossed',
    status: 'live', posMode: 'one_way_mode', enterPointSource: 'API', callbackRatio: '', stopSurplusTriggerPrice: '', stopSurplusTriggerType: '',
    stopLossTriggerPrice: '55000', stopLossTriggerType: 'mark_price', stpMode: 'none', cTime: String(T), uTime: String(T),
  };
}
