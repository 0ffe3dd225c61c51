import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activeTimeOf } from './bybit-private/server';
import { RawPrivateSocket, type PrivateFrame } from './bybit-private/test-client';
import { RawTradeSocket, signTradeAuth } from './bybit-ws/test-client';
import type { Credentials } from './control';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { formatNumber } from './markets';
import { bybitRaw } from './test-support';

const T = 1_700_000_000_000;
let clock = T;
let sandbox: RunningSandbox;
let creds: Credentials;
const sockets: RawPrivateSocket[] = [];
const allTopics = ['order', 'execution', 'position', 'wallet'];

async function open(url = sandbox.privateStreamUrl): Promise<RawPrivateSocket> {
  const socket = await RawPrivateSocket.open(url);
  sockets.push(socket);
  return socket;
}

async function stream(topics = allTopics, account: Credentials = creds): Promise<RawPrivateSocket> {
  const socket = await open();
  expect(await socket.auth(account, clock + 10_000)).toMatchObject({ success: true });
  expect(await socket.subscribe(topics)).toMatchObject({ success: true, op: 'subscribe' });
  return socket;
}

/** Everything pushed before this call has arrived once the pong that follows it has (one socket keeps its order). */
async function settle(socket: RawPrivateSocket): Promise<void> {
  const pongs = socket.frames.filter((frame) => frame.op === 'pong').length;
  socket.send({ op: 'ping' });
  await socket.until(() => socket.frames.filter((frame) => frame.op === 'pong').length > pongs);
}

async function rest(path: string, body: Record<string, unknown>, account: Credentials = creds): Promise<Record<string, unknown>> {
  const answer = (await bybitRaw(sandbox.url, account, 'POST', path, { category: 'linear', ...body }, { timestamp: clock })).json();
  expect(answer).toMatchObject({ retCode: 0 });
  return answer.result as Record<string, unknown>;
}

const market = (side: 'Buy' | 'Sell', qty: string, linkId: string, extra: Record<string, unknown> = {}) =>
  rest('/v5/order/create', { symbol: 'BTCUSDT', side, orderType: 'Market', qty, orderLinkId: linkId, ...extra });

beforeAll(async () => {
  // The clock stands still unless a test moves it: every frame's time is T.
  sandbox = await startSandbox({ randomWalk: false, book: deepBook, now: () => clock });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  clock = T;
  sandbox.control.reset();
  creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

describe('Bybit /v5/private: auth and ping (docs/v5/websocket/wss-authentication.mdx)', () => {
  it('auth answers success with the connection id and echoes req_id; a second auth, with any key, is refused', async () => {
    const socket = await open();
    const first = await socket.ask({ req_id: 'a-1', op: 'auth', args: [creds.apiKey, String(clock + 10_000), signTradeAuth(creds.secret, clock + 10_000)] });
    expect(first).toEqual({ req_id: 'a-1', success: true, ret_msg: '', op: 'auth', conn_id: expect.stringMatching(/^[0-9a-f]{20}-[0-9a-z]+$/) });
    expect(await socket.auth(creds, clock + 10_000)).toEqual({ success: false, ret_msg: 'Repeat auth', op: 'auth', conn_id: first.conn_id });
    const other = sandbox.control.createAccount({ exchange: 'bybit' });
    expect(await socket.auth(other, clock + 10_000)).toMatchObject({ success: false, ret_msg: 'Repeat auth' });
  });

  it('refuses a wrong signature, an unknown or Bitget key, an expiry not in the future and malformed args; none of them authenticates', async () => {
    const socket = await open();
    const refused = (retMsg: string) => ({ success: false, ret_msg: retMsg, op: 'auth', conn_id: expect.any(String) });
    expect(await socket.ask({ op: 'auth', args: [creds.apiKey, clock + 10_000, 'f'.repeat(64)] })).toEqual(refused('Invalid sign'));
    expect(await socket.auth({ apiKey: 'nope', secret: creds.secret }, clock + 10_000)).toEqual(refused('API key is invalid.'));
    const bitget = sandbox.control.createAccount({ exchange: 'bitget' });
    expect(await socket.auth(bitget, clock + 10_000)).toEqual(refused('API key is invalid.'));
    expect(await socket.auth(creds, clock)).toEqual(refused('Params Error'));
    expect(await socket.ask({ op: 'auth', args: [creds.apiKey] })).toEqual(refused('Params Error'));
    expect(await socket.ask({ op: 'auth', args: [creds.apiKey, 'soon', 'x'] })).toEqual(refused('Params Error'));
    expect(await socket.subscribe(['order'])).toMatchObject({ success: false, ret_msg: 'error:topic:order needs auth first' });
    expect(await socket.auth(creds, clock + 10_000)).toMatchObject({ success: true });
  });

  it('refuses a key bound to other addresses', async () => {
    const bound = sandbox.control.createAccount({ exchange: 'bybit', ips: ['10.1.2.3'] });
    const socket = await open();
    expect(await socket.auth(bound, clock + 10_000)).toMatchObject({ success: false, ret_msg: "Unmatched IP, please check your API key's bound IP addresses." });
  });

  it('ping answers the private pong: op pong, the server time in args, req_id echoed', async () => {
    const socket = await open();
    expect(await socket.ask({ req_id: 'p-1', op: 'ping' })).toEqual({ req_id: 'p-1', op: 'pong', args: [String(T)], conn_id: expect.any(String) });
    expect(await socket.ask({ op: 'ping' })).toEqual({ op: 'pong', args: [String(T)], conn_id: expect.any(String) });
    expect(await socket.ask({ op: 'order.create' })).toMatchObject({ success: false, ret_msg: 'error:invalid op', op: 'order.create' });
    expect(await socket.ask('not json')).toMatchObject({ success: false, ret_msg: 'error:invalid op' });
  });
});

describe('Bybit /v5/private: subscribe (docs/v5/websocket/private/*.mdx)', () => {
  it('takes the all-in-one and the linear topics, refuses unknown topics, a mix of both forms and a topic already taken', async () => {
    const socket = await open();
    await socket.auth(creds, clock + 10_000);
    expect(await socket.subscribe(['order', 'execution'], 's-1')).toEqual({ req_id: 's-1', success: true, ret_msg: '', op: 'subscribe', conn_id: expect.any(String) });
    expect(await socket.subscribe(['position.linear'])).toMatchObject({ success: true });
    expect(await socket.subscribe(['wallet', 'execution.linear'])).toMatchObject({ success: false, ret_msg: 'error:All-In-One topic and Categorised topic cannot be in the same subscription request' });
    expect(await socket.subscribe(['wallet.linear'])).toMatchObject({ success: false, ret_msg: 'error:handler not found,topic:wallet.linear' });
    expect(await socket.subscribe(['greeks'])).toMatchObject({ success: false, ret_msg: 'error:handler not found,topic:greeks' });
    expect(await socket.subscribe(['wallet', 'order'])).toMatchObject({ success: false, ret_msg: 'error:already subscribed,topic:order' });
    expect(await socket.ask({ op: 'subscribe', args: [] })).toMatchObject({ success: false, ret_msg: 'Params Error' });
    // refused requests took nothing: wallet is still free
    expect(await socket.subscribe(['wallet'])).toMatchObject({ success: true });
  });

  it('a categorised topic is pushed under its own name; another category gets nothing; unsubscribe stops the pushes', async () => {
    const socket = await stream(['order.linear', 'order.spot']);
    await market('Buy', '0.01', 'cat-1');
    await settle(socket);
    expect(socket.timeline().map(([topic, data]) => [topic, data.orderLinkId])).toEqual([['order.linear', 'cat-1']]);
    expect(await socket.ask({ op: 'unsubscribe', args: ['order.linear'], req_id: 'u-1' })).toEqual({ req_id: 'u-1', success: true, ret_msg: '', op: 'unsubscribe', conn_id: expect.any(String) });
    await market('Buy', '0.01', 'cat-2');
    await settle(socket);
    expect(socket.timeline()).toHaveLength(1);
  });

  it('pushes only the account the socket authenticated as', async () => {
    const other = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const mine = await stream(['order']);
    const theirs = await stream(['order'], other);
    await market('Buy', '0.01', 'mine-1');
    await settle(mine);
    await settle(theirs);
    expect(mine.pushes('order').map((frame) => frame.data?.[0]?.orderLinkId)).toEqual(['mine-1']);
    expect(theirs.pushes('order')).toEqual([]);
  });
});

describe('Bybit /v5/private: frames of real orders', () => {
  it('a market order that fills: order, execution, position, wallet, each field as documented', async () => {
    const socket = await stream();
    const { orderId } = await market('Buy', '0.01', 'fill-1');
    await settle(socket);
    expect(socket.timeline().map(([topic]) => topic)).toEqual(['order', 'execution', 'position', 'wallet']);
    const [order, execution, position, wallet] = socket.frames.filter((frame) => frame.topic) as PrivateFrame[];
    expect(order).toEqual({ id: expect.stringMatching(new RegExp(`^${creds.uid}`)), topic: 'order', creationTime: T, data: [filledOrder(String(orderId))] });
    const seq = (execution?.data?.[0]?.seq ?? 0) as number;
    expect(execution).toEqual({ id: `${creds.uid}_BTCUSDT_${seq}`, topic: 'execution', creationTime: T, data: [firstExecution(String(orderId), seq)] });
    expect(position).toEqual({ id: expect.any(String), topic: 'position', creationTime: T, data: [openPosition(seq)] });
    expect(wallet).toEqual({ id: expect.any(String), topic: 'wallet', creationTime: T, data: [walletAfterFee()] });
  });

  it('a resting limit order is pushed New with a position message; its cancel Cancelled, CancelByUser, with another', async () => {
    const socket = await stream(['order', 'position']);
    const { orderId } = await rest('/v5/order/create', { symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.01', price: '59000', orderLinkId: 'rest-1' });
    await rest('/v5/order/cancel', { symbol: 'BTCUSDT', orderId });
    await settle(socket);
    const timeline = socket.timeline();
    expect(timeline.map(([topic]) => topic)).toEqual(['order', 'position', 'order', 'position']);
    expect(timeline[0]?.[1]).toMatchObject({ orderId, orderStatus: 'New', cancelType: 'UNKNOWN', price: '59000', leavesQty: '0.01', leavesValue: '590', avgPrice: '', cumExecQty: '0', timeInForce: 'GTC', orderType: 'Limit' });
    expect(timeline[1]?.[1]).toMatchObject({ symbol: 'BTCUSDT', side: '', size: '0', positionIdx: 0, entryPrice: '0', seq: -1 });
    expect(timeline[2]?.[1]).toMatchObject({ orderId, orderStatus: 'Cancelled', cancelType: 'CancelByUser', leavesQty: '0', cumExecQty: '0' });
  });

  it('a partial fill on a thin book: PartiallyFilled with its execution, position and wallet, then Cancelled with what filled', async () => {
    sandbox.control.setBook({ levels: 1, levelSize: 0.004, spread: 0, step: 0 }, 'BTCUSDT');
    const socket = await stream();
    const { orderId } = await market('Buy', '0.01', 'thin-1');
    await settle(socket);
    const timeline = socket.timeline();
    expect(timeline.map(([topic]) => topic)).toEqual(['order', 'execution', 'position', 'wallet', 'order', 'position']);
    expect(timeline[0]?.[1]).toMatchObject({ orderId, orderStatus: 'PartiallyFilled', cumExecQty: '0.004', leavesQty: '0.006', avgPrice: '60000' });
    expect(timeline[1]?.[1]).toMatchObject({ orderId, execQty: '0.004', execPrice: '60000', execFee: '0.132', leavesQty: '0.006', closedSize: '0', isMaker: false });
    expect(timeline[2]?.[1]).toMatchObject({ side: 'Buy', size: '0.004', entryPrice: '60000' });
    expect(timeline[3]?.[1]).toMatchObject({ totalWalletBalance: '9999.868' });
    expect(timeline[4]?.[1]).toMatchObject({ orderId, orderStatus: 'Cancelled', cancelType: 'UNKNOWN', cumExecQty: '0.004', leavesQty: '0', cumExecFee: '0.132' });
    expect(timeline[5]?.[1]).toMatchObject({ size: '0.004' });
  });

  it('a stop order: Untriggered when placed, then Triggered, Filled, its execution, the position and the wallet when the price crosses', async () => {
    const socket = await stream();
    await market('Buy', '0.01', 'entry-1');
    const { orderId } = await rest('/v5/order/create', {
      symbol: 'BTCUSDT', side: 'Sell', orderType: 'Market', qty: '0.01', triggerPrice: '58000', triggerDirection: 2, reduceOnly: true, orderLinkId: 'stop-1',
    });
    await settle(socket);
    const before = socket.timeline().length;
    expect(socket.timeline().slice(4).map(([topic, data]) => [topic, data.orderStatus ?? data.size])).toEqual([['order', 'Untriggered'], ['position', '0.01']]);
    sandbox.control.setPrice('BTCUSDT', 57_900);
    await settle(socket);
    const after = socket.timeline().slice(before);
    expect(after.map(([topic]) => topic)).toEqual(['order', 'order', 'execution', 'position', 'wallet']);
    expect(after[0]?.[1]).toMatchObject({ orderId, orderStatus: 'Triggered', stopOrderType: 'Stop', createType: 'CreateByStopOrder', triggerPrice: '58000', triggerDirection: 2 });
    expect(after[1]?.[1]).toMatchObject({ orderId, orderStatus: 'Filled', cumExecQty: '0.01', avgPrice: '57900', closedPnl: formatNumber(-21 - 0.31845) });
    expect(after[2]?.[1]).toMatchObject({ orderId, execQty: '0.01', execPrice: '57900', closedSize: '0.01', execPnl: '-21', execFee: '0.31845', stopOrderType: 'Stop' });
    expect(after[3]?.[1]).toMatchObject({ side: '', size: '0', entryPrice: '0', takeProfit: '0', curRealisedPnl: formatNumber(-0.33 - 21 - 0.31845) });
  });

  it('a position closed by its take-profit: TP on the position, then Triggered (TakeProfit), Filled, execution, position at zero, wallet', async () => {
    const socket = await stream();
    await market('Buy', '0.01', 'tp-entry', { takeProfit: '61000' });
    await settle(socket);
    expect(socket.pushes('position')[0]?.data?.[0]).toMatchObject({ size: '0.01', takeProfit: '61000' });
    const before = socket.timeline().length;
    sandbox.control.setPrice('BTCUSDT', 61_000);
    await settle(socket);
    const after = socket.timeline().slice(before);
    expect(after.map(([topic]) => topic)).toEqual(['order', 'order', 'execution', 'position', 'wallet']);
    expect(after[0]?.[1]).toMatchObject({ orderStatus: 'Triggered', stopOrderType: 'TakeProfit', createType: 'CreateByTakeProfit', side: 'Sell', reduceOnly: true, triggerPrice: '61000' });
    expect(after[1]?.[1]).toMatchObject({ orderStatus: 'Filled', cumExecQty: '0.01', avgPrice: '61000' });
    expect(after[2]?.[1]).toMatchObject({ execQty: '0.01', execPrice: '61000', execPnl: '10', closedSize: '0.01', createType: 'CreateByTakeProfit', stopOrderType: 'TakeProfit' });
    expect(after[3]?.[1]).toMatchObject({ side: '', size: '0', takeProfit: '0', stopLoss: '0', seq: after[2]?.[1].seq });
    expect(after[4]?.[1]).toMatchObject({ totalWalletBalance: formatNumber(10_000 - 0.33 + 10 - 0.3355) });
  });

  it('trading-stop, leverage and a transfer push the position and the wallet', async () => {
    const socket = await stream(['position', 'wallet']);
    await market('Buy', '0.01', 'ts-entry');
    await settle(socket);
    const before = socket.timeline().length;
    await rest('/v5/position/trading-stop', { symbol: 'BTCUSDT', positionIdx: 0, tpslMode: 'Full', stopLoss: '59000' });
    await rest('/v5/position/set-leverage', { symbol: 'BTCUSDT', buyLeverage: '5', sellLeverage: '5' });
    sandbox.control.fund(creds.uid, 500);
    await settle(socket);
    const after = socket.timeline().slice(before);
    expect(after.map(([topic, data]) => [topic, data.stopLoss ?? data.totalWalletBalance, data.leverage])).toEqual([
      ['position', '59000', '10'],
      ['position', '59000', '5'],
      ['wallet', '10499.67', undefined],
    ]);
  });
});

describe('Bybit /v5/private: connections', () => {
  it('max_active_time is read in seconds or minutes and held to 30 s - 600 s', () => {
    expect([activeTimeOf('1m'), activeTimeOf('45s'), activeTimeOf('20s'), activeTimeOf('15m'), activeTimeOf('1h'), activeTimeOf(null)]).toEqual([60_000, 45_000, 30_000, 600_000, undefined, undefined]);
  });

  it('a socket without traffic either way is cut after the idle time', async () => {
    const quick = await startSandbox({ randomWalk: false, privateIdleMs: 150 });
    try {
      const started = performance.now();
      const socket = await RawPrivateSocket.open(quick.privateStreamUrl);
      await socket.until(() => socket.closed);
      expect(performance.now() - started).toBeGreaterThanOrEqual(149);
    } finally {
      await quick.close();
    }
  });

  it('new connections count against the stream domain ceiling shared with /v5/trade: past it, HTTP 429', async () => {
    const small = await startSandbox({ randomWalk: false, tradeConnectionsPerIp: { limit: 2, windowMs: 60_000 } });
    try {
      const trade = await RawTradeSocket.open(small.tradeSocketUrl);
      const first = await RawPrivateSocket.open(small.privateStreamUrl);
      await expect(RawPrivateSocket.open(small.privateStreamUrl)).rejects.toThrow('HTTP 429');
      await expect(RawTradeSocket.open(small.tradeSocketUrl)).rejects.toThrow('HTTP 429');
      expect(small.control.counters().tradeSockets.refusedByIp).toEqual({ '127.0.0.1': 2 });
      expect(small.control.counters().privateStreams).toMatchObject({ opened: { bybit: 1, bitget: 0 }, open: { bybit: 1, bitget: 0 } });
      trade.close();
      first.close();
    } finally {
      await small.close();
    }
  });
});

/** The order frame of a 0.01 BTC market buy filled at 60,000 (taker fee 0.055 %: 0.33 USDT). */
function filledOrder(orderId: string): Record<string, unknown> {
  return {
    category: 'linear', orderId, orderLinkId: 'fill-1', parentOrderLinkId: '', blockTradeId: '', symbol: 'BTCUSDT', price: '0', brokerOrderPrice: '', qty: '0.01',
    side: 'Buy', isLeverage: '', positionIdx: 0, orderStatus: 'Filled', createType: 'CreateByUser', cancelType: 'UNKNOWN', rejectReason: 'EC_NoError',
    avgPrice: '60000', leavesQty: '0', leavesValue: '0', cumExecQty: '0.01', cumExecValue: '600', cumExecFee: '0.33', cumFeeDetail: { USDT: '0.33' },
    closedPnl: '0', feeCurrency: '', timeInForce: 'IOC', orderType: 'Market', stopOrderType: '', ocoTriggerBy: '', orderIv: '', marketUnit: '',
    slippageToleranceType: 'UNKNOWN', slippageTolerance: '0', triggerPrice: '0', takeProfit: '0', stopLoss: '0', tpslMode: '', tpLimitPrice: '0',
    slLimitPrice: '0', tpTriggerBy: '', slTriggerBy: '', triggerDirection: 0, triggerBy: '', lastPriceOnCreated: '', reduceOnly: false,
    closeOnTrigger: false, placeType: '', smpType: 'None', smpGroup: 0, smpOrderId: '', createdTime: String(T), updatedTime: String(T),
    rpiTakerAccess: false, rpiMatchedQty: '0',
  };
}

function firstExecution(orderId: string, seq: number): Record<string, unknown> {
  return {
    category: 'linear', symbol: 'BTCUSDT', isLeverage: '', orderId, orderLinkId: 'fill-1', side: 'Buy', orderPrice: '0', orderQty: '0.01', leavesQty: '0',
    createType: 'CreateByUser', orderType: 'Market', stopOrderType: 'UNKNOWN', execFee: '0.33', execId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    execPrice: '60000', execQty: '0.01', execPnl: '0', execType: 'Trade', execValue: '600', execTime: String(T), isMaker: false, feeRate: '0.00055',
    tradeIv: '', markIv: '', markPrice: '60000', indexPrice: '', underlyingPrice: '', blockTradeId: '', closedSize: '0', extraFees: '', seq,
    marketUnit: '', feeCurrency: 'USDT',
  };
}

/** 0.01 BTC long at 60,000, cross margin on the account's whole wallet: no positive mark price liquidates it (liqPrice and bustPrice ""). */
function openPosition(seq: number): Record<string, unknown> {
  return {
    category: 'linear', symbol: 'BTCUSDT', side: 'Buy', size: '0.01', positionIdx: 0, tradeMode: 0, positionValue: '600', riskId: 1, riskLimitValue: '2000000',
    entryPrice: '60000', markPrice: '60000', leverage: '10', breakEvenPrice: formatNumber(600.33 / (0.01 - 0.01 * 0.00055)), positionBalance: '60',
    autoAddMargin: 0, positionIM: '60', positionIMByMp: '60', positionMM: '3', positionMMByMp: '3', liqPrice: '', bustPrice: '', tpslMode: 'Full',
    takeProfit: '0', stopLoss: '0', trailingStop: '0', unrealisedPnl: '0', curRealisedPnl: '-0.33', sessionAvgPrice: '', cumRealisedPnl: '-0.33',
    positionStatus: 'Normal', adlRankIndicator: 2, isReduceOnly: false, mmrSysUpdatedTime: '', leverageSysUpdatedTime: '', createdTime: String(T),
    updatedTime: String(T), openTime: T, seq,
  };
}

function walletAfterFee(): Record<string, unknown> {
  return {
    accountType: 'UNIFIED', accountIMRate: '0', accountIMRateByMp: '0', accountMMRate: '0', accountMMRateByMp: '0', accountLTV: '0',
    totalEquity: '9999.67', totalWalletBalance: '9999.67', totalMarginBalance: '9999.67', totalAvailableBalance: '9939.67', totalPerpUPL: '0',
    totalInitialMargin: '60', totalInitialMarginByMp: '60', totalMaintenanceMargin: '0', totalMaintenanceMarginByMp: '0',
    coin: [
      {
        coin: 'USDT', equity: '9999.67', usdValue: '9999.67', walletBalance: '9999.67', free: '', locked: '0', spotHedgingQty: '0', borrowAmount: '0',
        availableToWithdraw: '', availableToBorrow: '', accruedInterest: '0', totalOrderIM: '0', totalPositionIM: '60', totalPositionMM: '0',
        unrealisedPnl: '0', cumRealisedPnl: '-0.33', bonus: '0', marginCollateral: true, collateralSwitch: true, spotBorrow: '0',
      },
    ],
  };
}
