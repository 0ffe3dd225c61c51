import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bitgetClient, bybitClient, bybitRaw } from './test-support';

/** D11: the last price and the mark price kept apart; each trigger watches the price its exchange says. */
const S = 'BTC/USDT:USDT';
const PRODUCT = { productType: 'USDT-FUTURES', marginCoin: 'USDT' };
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, book: deepBook });
});
afterAll(async () => sandbox.close());
beforeEach(() => sandbox.control.reset());

const control = (method: string, path: string, body?: unknown) =>
  fetch(`${sandbox.url}/control${path}`, { method, headers: { 'content-type': 'application/json', 'x-sandbox-control': sandbox.controlToken }, body: body === undefined ? undefined : JSON.stringify(body) });

async function refusal(call: Promise<unknown>): Promise<Record<string, unknown>> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ccxt.ExchangeError);
  return JSON.parse((error as Error).message.replace(/^(bybit|bitget) /, '')) as Record<string, unknown>;
}

describe('last, mark and index prices', () => {
  it('are set apart through the control endpoint; setting "the price" moves all three; tickers of both exchanges show them', async () => {
    const apart = await control('POST', '/prices', { symbol: 'BTCUSDT', mark: 59_000.04, index: 59_010 });
    expect(await apart.json()).toEqual({ symbol: 'BTCUSDT', last: 60_000, mark: 59_000, index: 59_010 });
    expect((await (await control('GET', '/quotes')).json()).BTCUSDT).toEqual({ last: 60_000, mark: 59_000, index: 59_010 });
    expect((await control('POST', '/prices', { symbol: 'BTCUSDT' })).status).toBe(400);
    const bybit = bybitClient(sandbox.url, sandbox.control.createAccount({ exchange: 'bybit' }));
    const bitget = bitgetClient(sandbox.url, sandbox.control.createAccount({ exchange: 'bitget' }));
    expect((await bybit.fetchTicker(S)).info).toMatchObject({ lastPrice: '60000', markPrice: '59000', indexPrice: '59010' });
    expect((await bitget.fetchTicker(S)).info).toMatchObject({ lastPr: '60000', markPrice: '59000', indexPrice: '59010' });
    sandbox.control.setPrice('BTCUSDT', 61_000);
    expect(sandbox.control.quotes().BTCUSDT).toEqual({ last: 61_000, mark: 61_000, index: 61_000 });
  });

  it('the random walk moves the last price and the mark follows it halfway, more smoothly', () => {
    const before = sandbox.control.quotes().ETHUSDT;
    sandbox.control.step('ETHUSDT');
    const after = sandbox.control.quotes().ETHUSDT;
    expect(after?.last).not.toBe(before?.last);
    expect(after?.mark).toBeCloseTo(((before?.mark ?? 0) + (after?.last ?? 0)) / 2, 1);
    expect(after?.index).toBe(after?.mark);
  });
});

describe('Bybit triggers on triggerBy (LastPrice by default, MarkPrice, IndexPrice)', () => {
  const create = (creds: Parameters<typeof bybitRaw>[1], body: Record<string, unknown>) =>
    bybitRaw(sandbox.url, creds, 'POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Sell', orderType: 'Market', qty: '0.005', reduceOnly: true, ...body });

  it('a MarkPrice stop fires when the mark crosses it, a LastPrice one at the same trigger does not; positions are valued on the mark', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.01);
    expect((await create(creds, { triggerPrice: '59000', triggerDirection: 2, triggerBy: 'MarkPrice', orderLinkId: 'mark-stop' })).json()).toMatchObject({ retCode: 0 });
    expect((await create(creds, { triggerPrice: '59000', triggerDirection: 2, triggerBy: 'LastPrice', orderLinkId: 'last-stop' })).json()).toMatchObject({ retCode: 0 });
    sandbox.control.setQuote('BTCUSDT', { mark: 58_900 });
    const status = async (id: string) => (await ex.fetchOrder(undefined as unknown as string, S, { orderLinkId: id, acknowledged: true })).info;
    expect(await status('mark-stop')).toMatchObject({ orderStatus: 'Filled', triggerBy: 'MarkPrice', cumExecQty: '0.005', avgPrice: '60000' });
    expect(await status('last-stop')).toMatchObject({ orderStatus: 'Untriggered', triggerBy: 'LastPrice' });
    const [position] = await ex.fetchPositions([S]);
    expect(position?.info).toMatchObject({ size: '0.005', markPrice: '58900', unrealisedPnl: '-5.5' });
  });

  it('110093 and trading-stop compare with the price their triggerBy names; a MarkPrice position stop fires on the mark alone', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.01);
    sandbox.control.setQuote('BTCUSDT', { mark: 59_000 });
    expect((await create(creds, { triggerPrice: '59500', triggerDirection: 2, triggerBy: 'MarkPrice' })).json()).toMatchObject({
      retCode: 110093,
      retMsg: 'expect Falling, but trigger_price[59500] >= current[59000]??MarkPrice',
    });
    expect((await create(creds, { triggerPrice: '59500', triggerDirection: 2, triggerBy: 'LastPrice' })).json()).toMatchObject({ retCode: 0 });
    const stop = (params: Record<string, unknown>) => ex.privatePostV5PositionTradingStop({ category: 'linear', symbol: 'BTCUSDT', positionIdx: 0, tpslMode: 'Full', ...params });
    expect(await refusal(stop({ stopLoss: '59500', slTriggerBy: 'MarkPrice' }))).toMatchObject({
      retCode: 10001,
      retMsg: 'StopLoss:59500 set for Buy position should lower than base_price:59000??MarkPrice',
    });
    await stop({ stopLoss: '58500', slTriggerBy: 'MarkPrice' });
    sandbox.control.setQuote('BTCUSDT', { mark: 58_400 });
    expect(sandbox.control.account(creds.uid).positions).toEqual([]);
    const [closing] = await ex.fetchCanceledAndClosedOrders(S, undefined, undefined, { orderFilter: 'tpslOrder' });
    expect(closing?.info).toMatchObject({ stopOrderType: 'StopLoss', createType: 'CreateByStopLoss', orderStatus: 'Filled', avgPrice: '60000' });
  });
});

describe('Bitget triggers and refuses on triggerType (mark_price: the mark, fill_price: the last price)', () => {
  it('a mark_price stop is refused against the mark (40917) and fires on it; a fill_price one is checked and fires on the last price', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const ex = bitgetClient(sandbox.url, creds);
    const tpsl = (params: Record<string, unknown>) => ex.privateMixPostV2MixOrderPlaceTpslOrder({ symbol: 'BTCUSDT', ...PRODUCT, holdSide: 'buy', ...params });
    await ex.createOrder(S, 'market', 'buy', 0.02);
    sandbox.control.setQuote('BTCUSDT', { mark: 59_000 });
    expect(await refusal(tpsl({ planType: 'pos_loss', triggerPrice: '59500', triggerType: 'mark_price' }))).toMatchObject({
      code: '40917',
      msg: 'Stop price for long positions please < mark price 59000',
    });
    await tpsl({ planType: 'loss_plan', triggerPrice: '59500', size: '0.01', triggerType: 'fill_price', clientOid: 'on-last' });
    await tpsl({ planType: 'pos_loss', triggerPrice: '58500', triggerType: 'mark_price', clientOid: 'on-mark' });
    sandbox.control.setQuote('BTCUSDT', { last: 59_400 });
    const plan = (id: string) => sandbox.control.account(creds.uid).orders.find((order) => order.clientOrderId === id);
    expect(plan('on-last')).toMatchObject({ status: 'filled', filledQty: 0.01, avgPrice: 59_400 });
    expect(plan('on-mark')).toMatchObject({ status: 'untriggered' });
    expect((await ex.fetchTicker(S)).info).toMatchObject({ lastPr: '59400', markPrice: '59000' });
    sandbox.control.setQuote('BTCUSDT', { mark: 58_400 });
    expect(plan('on-mark')).toMatchObject({ status: 'filled', filledQty: 0.01 });
    expect(sandbox.control.account(creds.uid).positions).toEqual([]);
  });
});
