import ccxt, { type bybit as Bybit } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Credentials } from './control';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bybitClient } from './test-support';

const S = 'BTC/USDT:USDT';
let sandbox: RunningSandbox;
let creds: Credentials;
let ex: Bybit;
/** The sandbox clock runs ahead of the wall clock, so a test can place more than the 10 orders per second a UID may. */
let ahead = 0;
const pace = () => (ahead += 101);

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, book: deepBook, now: () => Date.now() + ahead });
});
afterAll(async () => sandbox.close());
beforeEach(async () => {
  ahead = 0;
  sandbox.control.reset();
  creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
  ex = bybitClient(sandbox.url, creds);
  await ex.loadMarkets();
});

/** The ccxt error class and the exact Bybit answer of a refused call. */
async function refused(call: Promise<unknown>, errorClass: new (...args: never[]) => Error, code: number, message: string): Promise<void> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(errorClass);
  const body = JSON.parse((error as Error).message.replace(/^bybit /, '')) as { retCode: number; retMsg: string };
  expect(body).toMatchObject({ retCode: code, retMsg: message });
}

const tradingStop = (params: Record<string, unknown>) => ex.privatePostV5PositionTradingStop({ category: 'linear', symbol: 'BTCUSDT', positionIdx: 0, tpslMode: 'Full', ...params });
const state = () => sandbox.control.account(creds.uid);

describe('Bybit refuses protection on the wrong side of the market', () => {
  it('B11: an entry with an attached stop is checked against the last price at submission (10001, nothing applied)', async () => {
    await refused(
      ex.createOrder(S, 'market', 'buy', 0.01, undefined, { stopLoss: { triggerPrice: 60100 } }),
      ccxt.BadRequest,
      10001,
      'StopLoss:60100 set for Buy position should lower than base_price:60000??LastPrice',
    );
    await refused(
      ex.createOrder(S, 'market', 'sell', 0.01, undefined, { takeProfit: { triggerPrice: 60000 } }),
      ccxt.BadRequest,
      10001,
      'TakeProfit:60000 set for Sell position should be lower than base_price:60000??LastPrice',
    );
    // a limit entry is checked against its own price
    await refused(
      ex.createOrder(S, 'limit', 'buy', 0.01, 59000, { stopLoss: { triggerPrice: 59500 } }),
      ccxt.BadRequest,
      10001,
      'StopLoss:59500 set for Buy position should lower than base_price:59000??LastPrice',
    );
    expect(state()).toMatchObject({ orders: [], positions: [] });
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { stopLoss: { triggerPrice: 59900 } });
    expect(state().positions[0]).toMatchObject({ size: 0.01, stopLoss: 59900 });
  });

  it('A1: trading-stop refuses a stop above the last price of a long (10001) and leaves the old stop; a stop at entry below the market is fine', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { stopLoss: { triggerPrice: 59000 } });
    sandbox.control.setPrice('BTCUSDT', 59500);
    await refused(tradingStop({ stopLoss: '60000', slTriggerBy: 'MarkPrice' }), ccxt.BadRequest, 10001, 'StopLoss:60000 set for Buy position should lower than base_price:59500??MarkPrice');
    await refused(tradingStop({ takeProfit: '59400' }), ccxt.BadRequest, 10001, 'TakeProfit:59400 set for Buy position should be higher than base_price:59500??LastPrice');
    expect(state().positions[0]).toMatchObject({ stopLoss: 59000, takeProfit: 0 });
    sandbox.control.setPrice('BTCUSDT', 61000);
    await tradingStop({ stopLoss: '60000' });
    expect(state().positions[0]?.stopLoss).toBe(60000);
  });

  it('A1: a short position is refused a stop below the market, and partial legs are checked the same way', async () => {
    await ex.createOrder(S, 'market', 'sell', 0.02);
    await refused(
      tradingStop({ stopLoss: '59990', tpslMode: 'Partial', slSize: '0.01', tpSize: '0.01', takeProfit: '59000' }),
      ccxt.BadRequest,
      10001,
      'StopLoss:59990 set for Sell position should greater base_price:60000??LastPrice',
    );
    expect(state().orders.filter((o) => o.kind === 'tpsl')).toEqual([]);
  });

  it('B1: trading-stop with unchanged values answers 34040 "Not modified" (ccxt ExchangeError, unmapped)', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    await tradingStop({ stopLoss: '59000' });
    await refused(tradingStop({ stopLoss: '59000' }), ccxt.ExchangeError, 34040, 'Not modified');
    await tradingStop({ trailingStop: '300', activePrice: '61000' });
    await refused(tradingStop({ trailingStop: '300', activePrice: '61000' }), ccxt.ExchangeError, 34040, 'Not modified');
    await refused(tradingStop({}), ccxt.ExchangeError, 34040, 'Not modified');
    const error = await tradingStop({ stopLoss: '59000' }).catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ccxt.BadRequest);
    expect(state().positions[0]).toMatchObject({ stopLoss: 59000, trailing: { distance: 300, activation: 61000 } });
    await tradingStop({ stopLoss: '58000', trailingStop: '300', activePrice: '61000' });
    expect(state().positions[0]?.stopLoss).toBe(58000);
  });

  it('a trailing stop whose activation price the market has passed is refused (10001 TrailingProfit)', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    sandbox.control.setPrice('BTCUSDT', 62000);
    await refused(
      tradingStop({ trailingStop: '500', activePrice: '61000' }),
      ccxt.BadRequest,
      10001,
      'TrailingProfit:61000 set for Buy position should be greater than entry_price:60000??LastPrice and last_price:62000',
    );
    expect(state().positions[0]?.trailing).toBeUndefined();
  });

  it('B2: a conditional take-profit whose trigger is already crossed: 110092 rising, 110093 falling (ccxt InvalidOrder)', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.02);
    await refused(
      ex.createOrder(S, 'market', 'sell', 0.01, undefined, { takeProfitPrice: 60000, reduceOnly: true, clientOrderId: 'tp-crossed' }),
      ccxt.InvalidOrder,
      110092,
      'expect Rising, but trigger_price[60000] <= current[60000]??LastPrice',
    );
    await refused(
      ex.createOrder(S, 'market', 'sell', 0.01, undefined, { stopLossPrice: 60500, reduceOnly: true, clientOrderId: 'sl-crossed' }),
      ccxt.InvalidOrder,
      110093,
      'expect Falling, but trigger_price[60500] >= current[60000]??LastPrice',
    );
    expect(state().orders.map((o) => o.clientOrderId)).toEqual(['']);
  });

  it('B7: at most 10 open conditional orders per symbol (110009); Partial TP/SL at most 20 per position (110061)', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.1);
    for (let leg = 1; leg <= 10; leg += 1) {
      pace();
      await ex.createOrder(S, 'market', 'sell', 0.001, undefined, { takeProfitPrice: 61000 + leg, reduceOnly: true, clientOrderId: `leg-${leg}` });
    }
    pace();
    await refused(
      ex.createOrder(S, 'market', 'sell', 0.001, undefined, { takeProfitPrice: 62000, reduceOnly: true, clientOrderId: 'leg-11' }),
      ccxt.InvalidOrder,
      110009,
      'The number of stop orders exceeds maximum limit allowed',
    );
    expect(state().orders.filter((o) => o.kind === 'conditional')).toHaveLength(10);
    pace();
    await ex.createOrder('ETH/USDT:USDT', 'market', 'buy', 0.1);
    pace();
    await ex.createOrder('ETH/USDT:USDT', 'market', 'sell', 0.01, undefined, { takeProfitPrice: 3100, reduceOnly: true });
    for (let leg = 1; leg <= 10; leg += 1) {
      pace();
      await tradingStop({ tpslMode: 'Partial', takeProfit: String(63000 + leg), stopLoss: String(55000 + leg), tpSize: '0.001', slSize: '0.001' });
    }
    pace();
    await refused(tradingStop({ tpslMode: 'Partial', takeProfit: '64000', tpSize: '0.001' }), ccxt.BadRequest, 110061, 'Not allowed to have more than 20 TP/SLs under Partial tpSlMode');
    expect(state().orders.filter((o) => o.kind === 'tpsl')).toHaveLength(20);
  });
});

describe('A2: what survives a Bybit position close (strictness bybitConditionalSurvivesClose)', () => {
  it('plain conditional reduce-only orders stay Untriggered; trading-stop legs and the position TP/SL go with the position', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.03, undefined, { stopLoss: { triggerPrice: 58000 } });
    await ex.createOrder(S, 'market', 'sell', 0.01, undefined, { takeProfitPrice: 62000, reduceOnly: true, clientOrderId: 'old-tp' });
    await tradingStop({ tpslMode: 'Partial', takeProfit: '63000', tpSize: '0.01' });
    await ex.createOrder(S, 'market', 'sell', 0.03, undefined, { reduceOnly: true });
    const open = await ex.fetchOpenOrders(S, undefined, undefined, { orderFilter: 'StopOrder' });
    expect(open.map((o) => [o.clientOrderId, o.info.orderStatus])).toEqual([['old-tp', 'Untriggered']]);
    const leg = state().orders.find((o) => o.labels.stopOrderType === 'PartialTakeProfit');
    expect(leg).toMatchObject({ status: 'deactivated', cancelReason: 'positionClosed' });
    expect((await ex.fetchCanceledAndClosedOrders(S)).find((o) => o.info.stopOrderType === 'PartialTakeProfit')?.info).toMatchObject({ orderStatus: 'Deactivated', cancelType: 'CancelByTpSlTsClear' });

    // A new long on the symbol is cut at the old take-profit price when it triggers.
    await ex.createOrder(S, 'market', 'buy', 0.02);
    sandbox.control.setPrice('BTCUSDT', 62000);
    expect(state().positions[0]?.size).toBeCloseTo(0.01, 9);
    expect(state().orders.find((o) => o.clientOrderId === 'old-tp')).toMatchObject({ status: 'filled', filledQty: 0.01 });
  });

  it('a surviving order that triggers with no position is cancelled by the reduce-only rule (Cancelled, CancelByReduceOnly)', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    await ex.createOrder(S, 'market', 'sell', 0.01, undefined, { stopLossPrice: 59000, reduceOnly: true, clientOrderId: 'old-sl' });
    await ex.createOrder(S, 'market', 'sell', 0.01, undefined, { reduceOnly: true });
    sandbox.control.setPrice('BTCUSDT', 58900);
    const [order] = await ex.fetchCanceledAndClosedOrders(S, undefined, undefined, { orderLinkId: 'old-sl' });
    expect(order?.info).toMatchObject({ orderStatus: 'Cancelled', cancelType: 'CancelByReduceOnly', cumExecQty: '0', stopOrderType: 'Stop' });
    expect(state().positions).toEqual([]);
  });

  it('switched off, every reduce-only order goes with the position', async () => {
    expect(sandbox.control.setStrictness({ bybitConditionalSurvivesClose: false }).bybitConditionalSurvivesClose).toBe(false);
    await ex.createOrder(S, 'market', 'buy', 0.01);
    await ex.createOrder(S, 'market', 'sell', 0.01, undefined, { takeProfitPrice: 62000, reduceOnly: true, clientOrderId: 'old-tp' });
    await ex.createOrder(S, 'market', 'sell', 0.01, undefined, { reduceOnly: true });
    expect(state().orders.find((o) => o.clientOrderId === 'old-tp')).toMatchObject({ status: 'deactivated', cancelReason: 'positionClosed' });
  });
});
