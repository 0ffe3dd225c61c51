import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bitgetClient, bitgetRaw, bybitClient } from './test-support';

/** D9 (requests refused as documented) and D1/D2 (market orders on an empty book). */
const S = 'BTC/USDT:USDT';
let sandbox: RunningSandbox;
let ahead = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, book: deepBook, now: () => Date.now() + ahead });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  ahead = 0;
  sandbox.control.reset();
});

async function refusal(call: Promise<unknown>, errorClass: new (...args: never[]) => Error): Promise<Record<string, unknown>> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(errorClass);
  return JSON.parse((error as Error).message.replace(/^(bybit|bitget) /, '')) as Record<string, unknown>;
}

describe('D9 Bybit', () => {
  it('a reduce-only order carrying a stop loss or take profit is refused (10001): "When reduceOnly is true, take profit/stop loss cannot be set"', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.02);
    const answer = await refusal(ex.createOrder(S, 'market', 'sell', 0.01, undefined, { reduceOnly: true, stopLoss: { triggerPrice: 59_000 } }), ccxt.BadRequest);
    expect(answer).toMatchObject({ retCode: 10001, retMsg: 'params error: When reduceOnly is true, take profit/stop loss cannot be set' });
    expect((await refusal(ex.createOrder(S, 'limit', 'sell', 0.01, 61_000, { reduceOnly: true, takeProfit: { triggerPrice: 62_000 } }), ccxt.BadRequest)).retCode).toBe(10001);
    expect(sandbox.control.account(creds.uid).orders).toHaveLength(1);
  });

  it('trading-stop without tpslMode is refused, and so is a Partial one whose tpSize and slSize differ (10001)', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.02);
    const stop = (params: Record<string, unknown>) => ex.privatePostV5PositionTradingStop({ category: 'linear', symbol: 'BTCUSDT', positionIdx: 0, ...params });
    expect(await refusal(stop({ stopLoss: '59000' }), ccxt.BadRequest)).toMatchObject({ retCode: 10001, retMsg: 'params error: tpslMode is required' });
    const differing = stop({ tpslMode: 'Partial', takeProfit: '62000', stopLoss: '59000', tpSize: '0.01', slSize: '0.02' });
    expect(await refusal(differing, ccxt.BadRequest)).toMatchObject({ retCode: 10001, retMsg: 'params error: the value of tpSize and slSize must equal' });
    expect(sandbox.control.account(creds.uid).positions[0]).toMatchObject({ stopLoss: 0, takeProfit: 0 });
    await stop({ tpslMode: 'Partial', takeProfit: '62000', stopLoss: '59000', tpSize: '0.01', slSize: '0.01' });
    expect(sandbox.control.account(creds.uid).orders.filter((order) => order.kind === 'tpsl').map((order) => [order.labels.tpsl, order.qty])).toEqual([
      ['tp', 0.01],
      ['sl', 0.01],
    ]);
  });
});

describe('D9 Bitget', () => {
  it('an order without marginCoin is refused (40019 "Parameter marginCoin cannot be empty"), another coin 43049; nothing is placed', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const ex = bitgetClient(sandbox.url, creds);
    const order = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginMode: 'crossed', size: '0.01', side: 'buy', orderType: 'market' };
    expect(await refusal(ex.privateMixPostV2MixOrderPlaceOrder(order), ccxt.BadRequest)).toMatchObject({ code: '40019', msg: 'Parameter marginCoin cannot be empty' });
    expect(await refusal(ex.privateMixPostV2MixOrderPlaceOrder({ ...order, marginCoin: 'USDC' }), ccxt.ExchangeError)).toMatchObject({ code: '43049', msg: 'Margin coin is not allowed' });
    const plan = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginMode: 'crossed', size: '0.01', side: 'buy', orderType: 'market', triggerPrice: '61000', triggerType: 'mark_price', planType: 'normal_plan' };
    expect((await refusal(ex.privateMixPostV2MixOrderPlacePlanOrder(plan), ccxt.BadRequest)).code).toBe('40019');
    expect(sandbox.control.account(creds.uid).orders).toEqual([]);
  });

  it('a clientOid of 50 characters is accepted; 51 is refused (40304 "clientOid or clientOrderId length cannot greater than 50")', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const ex = bitgetClient(sandbox.url, creds);
    const fifty = `cp-${'a'.repeat(47)}`;
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: fifty });
    expect((await ex.fetchOrder(undefined as unknown as string, S, { clientOrderId: fifty })).status).toBe('closed');
    const answer = await refusal(ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: `${fifty}b` }), ccxt.BadRequest);
    expect(answer).toMatchObject({ code: '40304', msg: 'clientOid or clientOrderId length cannot greater than 50' });
    expect(sandbox.control.account(creds.uid).orders).toHaveLength(1);
  });
});

describe('D1/D2: a market order on an empty book', () => {
  const thin = () => sandbox.control.setBook({ levels: 1, levelSize: 0.01, spread: 0.0002, step: 0.0002, refillMs: 20_000 }, 'BTCUSDT');

  it('Bitget refuses it with 22045 "Insufficient liquidity in the market, please operate later" (strictness bitgetEmptyBookRefused); a close too', async () => {
    thin();
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const ex = bitgetClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.02, undefined, { clientOrderId: 'half' }); // takes the one ask level: 0.01 of 0.02
    const empty = await refusal(ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'none' }), ccxt.ExchangeError);
    expect(empty).toMatchObject({ code: '22045', msg: 'Insufficient liquidity in the market, please operate later' });
    ahead = 25_000; // the ask level refilled (refillMs 20 s), within Bitget's 30-second timestamp window
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'refilled' });
    await ex.createOrder(S, 'market', 'sell', 0.01, undefined, { reduceOnly: true, clientOrderId: 'close-1' }); // takes the bid level
    const close = await refusal(ex.createOrder(S, 'market', 'sell', 0.01, undefined, { reduceOnly: true, clientOrderId: 'close-2' }), ccxt.ExchangeError);
    expect(close.code).toBe('22045');
    const orders = sandbox.control.account(creds.uid).orders.map((order) => [order.clientOrderId, order.status, order.filledQty]);
    expect(orders).toEqual([
      ['half', 'cancelled', 0.01],
      ['refilled', 'filled', 0.01],
      ['close-1', 'filled', 0.01],
    ]);
    expect(sandbox.control.account(creds.uid).positions[0]?.size).toBe(0.01);
  });

  it('switched off, Bitget accepts it and cancels it unfilled (canceled, baseVolume 0); Bybit does so always (Cancelled, cumExecQty 0)', async () => {
    thin();
    sandbox.control.setStrictness({ bitgetEmptyBookRefused: false });
    const bitget = bitgetClient(sandbox.url, sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 }));
    await bitget.createOrder(S, 'market', 'buy', 0.01);
    await bitget.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'unfilled' });
    expect((await bitget.fetchOrder(undefined as unknown as string, S, { clientOrderId: 'unfilled' })).info).toMatchObject({ state: 'canceled', baseVolume: '0', size: '0.01' });
    const bybit = bybitClient(sandbox.url, sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 }));
    await bybit.createOrder(S, 'market', 'buy', 0.01);
    await bybit.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'unfilled' });
    const order = await bybit.fetchOrder(undefined as unknown as string, S, { orderLinkId: 'unfilled', acknowledged: true });
    expect(order.info).toMatchObject({ orderStatus: 'Cancelled', cumExecQty: '0', qty: '0.01' });
  });
});

describe('D9 Bitget, TP/SL', () => {
  it('a place-tpsl-order without marginCoin is refused too (40019)', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    await bitgetClient(sandbox.url, creds).createOrder(S, 'market', 'buy', 0.01);
    const answer = await bitgetRaw(sandbox.url, creds, 'POST', '/api/v2/mix/order/place-tpsl-order', { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', planType: 'pos_loss', triggerPrice: '59000', holdSide: 'buy' });
    expect([answer.status, answer.json()]).toEqual([400, { code: '40019', msg: 'Parameter marginCoin cannot be empty', requestTime: expect.any(Number), data: null }]);
  });
});
