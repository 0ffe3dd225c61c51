import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index';
import { startExactSandbox } from '../../sandbox/test-support';
import { adapterHarness, bodyOf, failureOf, routes, sandboxAccount, type AdapterHarness } from './test-support';

let sandbox: RunningSandbox;
let h: AdapterHarness;

beforeAll(async () => {
  sandbox = await startExactSandbox({ randomWalk: false });
  sandbox.control.setPrice('BTCUSDT', 60_000);
  sandbox.control.setPrice('ETHUSDT', 3_000);
  h = adapterHarness(sandbox);
  await h.adapters.bitget.loadMarkets();
  await h.adapters.bybit.loadMarkets();
});
afterAll(async () => sandbox?.close());
afterEach(() => sandbox.control.setFaults([]));

const bitget = () => h.adapters.bitget;
const entry = (clientOrderId: string, positionMode: 'oneway' | 'hedge', symbol = 'BTCUSDT', quantity = 0.01) =>
  ({ symbol, side: 'long' as const, quantity, clientOrderId, positionMode });

describe('Bitget position mode: read before it is changed, kept per product type (LIVE-FIDELITY B4)', () => {
  it('never sets a mode the account already has, and asks once for every symbol', async () => {
    const creds = sandboxAccount(sandbox, 'bitget', { positionMode: 'oneway' });
    const first = h.recorder.since();
    await bitget().setPositionMode(creds, 'BTCUSDT', 'oneway');
    expect(routes(first())).toEqual(['GET /api/v2/mix/account/account']);
    const second = h.recorder.since();
    await bitget().setPositionMode(creds, 'ETHUSDT', 'oneway');
    await bitget().setPositionMode(creds, 'SOLUSDT', 'oneway');
    expect(routes(second())).toEqual([]);
  });

  it('changes a different mode once, product-wide, and then knows it for every symbol', async () => {
    const creds = sandboxAccount(sandbox, 'bitget', { positionMode: 'oneway' });
    const sent = h.recorder.since();
    await bitget().setPositionMode(creds, 'BTCUSDT', 'hedge');
    await bitget().setPositionMode(creds, 'ETHUSDT', 'hedge');
    expect(routes(sent())).toEqual(['GET /api/v2/mix/account/account', 'POST /api/v2/mix/account/set-position-mode']);
    expect(bodyOf(sent()[1])).toMatchObject({ posMode: 'hedge_mode', productType: 'USDT-FUTURES' });
    expect(sandbox.control.account(creds.uid).positionMode).toBe('hedge');
  });

  it('a hedge account holding a position cannot switch: a one-way strategy trades in its long slot, closes included', async () => {
    const creds = sandboxAccount(sandbox, 'bitget', { positionMode: 'hedge' });
    await bitget().placeEntry(creds, entry('ct900-1-e', 'hedge', 'ETHUSDT', 0.1));
    const sent = h.recorder.since();
    await bitget().setPositionMode(creds, 'BTCUSDT', 'oneway');
    // Whatever Bitget answers the switch (40920 with anything open), the account stays in hedge mode.
    expect(sandbox.control.account(creds.uid).positionMode).toBe('hedge');
    expect(sent().at(-1)).toMatchObject({ path: '/api/v2/mix/account/set-position-mode', code: expect.stringMatching(/^(40920|45117)$/) });

    await bitget().placeEntry(creds, entry('ct900-2-e', 'oneway'));
    await bitget().placeTakeProfit(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.004, clientOrderId: 'ct900-2-tp1', positionMode: 'oneway', triggerPrice: 61_000 });
    await bitget().setStopLoss(creds, { symbol: 'BTCUSDT', side: 'long', price: 59_000, positionMode: 'oneway' });
    const state = sandbox.control.account(creds.uid);
    expect(state.positions.find((p) => p.symbol === 'BTCUSDT')).toMatchObject({ positionIdx: 1, side: 'long', size: 0.01 });
    expect(state.orders.filter((o) => o.symbol === 'BTCUSDT' && o.kind === 'tpsl' && o.status === 'untriggered').map((o) => o.positionIdx)).toEqual([1, 1]);
    const closed = await bitget().closePosition(creds, { symbol: 'BTCUSDT', side: 'long', clientOrderId: 'ct900-2-x', positionMode: 'oneway' });
    expect(closed).toMatchObject({ status: 'closed', filledQty: 0.01 });
    expect(sandbox.control.account(creds.uid).positions.map((p) => p.symbol)).toEqual(['ETHUSDT']);
  });

  it('a one-way account holding a position cannot become hedge: a final failure that says why', async () => {
    const creds = sandboxAccount(sandbox, 'bitget', { positionMode: 'oneway' });
    await bitget().placeEntry(creds, entry('ct901-1-e', 'oneway'));
    const failure = await failureOf(bitget().setPositionMode(creds, 'ETHUSDT', 'hedge'));
    expect(failure).toMatchObject({ code: 'invalid_request', retryable: false, exchangeCode: expect.stringMatching(/^(40920|45117)$/) });
    expect(failure.staffMessage).toMatch(/^Bitget cannot switch this account from one-way to hedge mode while it holds positions or orders \((40920|45117)\): close them on Bitget, or trade this strategy in one-way mode$/);
    const refused = await failureOf(bitget().placeEntry(creds, entry('ct901-2-e', 'hedge', 'ETHUSDT', 0.1)));
    expect(refused.staffMessage).toMatch(/^Bitget cannot switch this account from one-way to hedge mode/);
    expect(sandbox.control.account(creds.uid).orders.map((o) => o.clientOrderId)).toEqual(['ct901-1-e']);
  });
});

describe("Bitget margin mode: every order carries the symbol's own mode, nothing switches it (LIVE-FIDELITY B3)", () => {
  it('an isolated customer stays isolated through entries, trailing stop and close; the mode is read once', async () => {
    const creds = sandboxAccount(sandbox, 'bitget', { marginMode: 'isolated' });
    const sent = h.recorder.since();
    await bitget().placeEntry(creds, entry('ct910-1-e', 'oneway'));
    await bitget().placeEntry(creds, entry('ct910-2-e', 'oneway'));
    await bitget().placeTrailingStop(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.02, clientOrderId: 'ct910-1-tr', positionMode: 'oneway', activationPrice: 62_000, callback: { type: 'percent', value: 1 } });
    await bitget().closePosition(creds, { symbol: 'BTCUSDT', side: 'long', clientOrderId: 'ct910-1-x', positionMode: 'oneway' });
    const requests = sent();
    expect(routes(requests).filter((r) => r === 'GET /api/v2/mix/account/account')).toHaveLength(1);
    expect(routes(requests).filter((r) => r.includes('set-margin-mode'))).toEqual([]);
    const orders = requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/v2/mix/order/'));
    // The trailing stop is a position plan (moving_plan): TP/SL plans carry no margin mode of their own.
    expect(orders.map((r) => [r.path, bodyOf(r).marginMode ?? bodyOf(r).planType])).toEqual([
      ['/api/v2/mix/order/place-order', 'isolated'],
      ['/api/v2/mix/order/place-order', 'isolated'],
      ['/api/v2/mix/order/place-tpsl-order', 'moving_plan'],
      ['/api/v2/mix/order/place-order', 'isolated'],
    ]);
    expect(sandbox.control.account(creds.uid).marginMode).toBe('isolated');
  });

  it('when Bitget refuses an order for its margin mode (45117), the mode is read again and the order sent once more', async () => {
    const creds = sandboxAccount(sandbox, 'bitget', { marginMode: 'cross' });
    await bitget().placeEntry(creds, entry('ct911-1-e', 'oneway'));
    // The customer switched the symbol to isolated on Bitget; our memory still says cross.
    sandbox.control.updateAccount(creds.uid, { marginMode: 'isolated' });
    sandbox.control.setFaults([{ account: creds.uid, route: '/api/v2/mix/order/place-order', reject: { code: '45117', msg: 'Margin mode does not match the position' }, remaining: 1 }]);
    const sent = h.recorder.since();
    const placed = await bitget().placeEntry(creds, entry('ct911-2-e', 'oneway'));
    expect(placed).toMatchObject({ clientOrderId: 'ct911-2-e', exchangeOrderId: expect.any(String) });
    expect(sent().map((r) => [r.method, r.path, r.path.endsWith('place-order') ? bodyOf(r).marginMode : r.code])).toEqual([
      ['POST', '/api/v2/mix/order/place-order', 'crossed'],
      ['GET', '/api/v2/mix/account/account', '00000'],
      ['POST', '/api/v2/mix/order/place-order', 'isolated'],
    ]);
  });
});

describe('Bitget leverage (LIVE-FIDELITY B10, B12)', () => {
  it('isolated + hedge: both sides are set with holdSide; cross or one-way: one request without it', async () => {
    const isolatedHedge = sandboxAccount(sandbox, 'bitget', { marginMode: 'isolated', positionMode: 'hedge' });
    const sent = h.recorder.since();
    await bitget().setLeverage(isolatedHedge, 'BTCUSDT', 7);
    const posts = sent().filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.path, bodyOf(r).holdSide, bodyOf(r).leverage])).toEqual([
      ['/api/v2/mix/account/set-leverage', 'long', '7'],
      ['/api/v2/mix/account/set-leverage', 'short', '7'],
    ]);
    const crossOneWay = sandboxAccount(sandbox, 'bitget', { marginMode: 'cross', positionMode: 'oneway' });
    const again = h.recorder.since();
    await bitget().setLeverage(crossOneWay, 'BTCUSDT', 7);
    const single = again().filter((r) => r.method === 'POST');
    expect(single.map((r) => [r.path, bodyOf(r).holdSide, bodyOf(r).leverage])).toEqual([['/api/v2/mix/account/set-leverage', undefined, '7']]);
  });

  it('"leverage not modified" (45054) is success', async () => {
    const creds = sandboxAccount(sandbox, 'bitget');
    sandbox.control.setFaults([{ account: creds.uid, route: '/api/v2/mix/account/set-leverage', reject: { code: '45054', msg: 'Leverage already at 7x' }, remaining: 1 }]);
    await expect(bitget().setLeverage(creds, 'BTCUSDT', 7)).resolves.toBeUndefined();
    expect(sandbox.control.faults()).toEqual([expect.objectContaining({ remaining: 0 })]);
  });
});

describe('Bybit margin mode: read by the customer, never switched', () => {
  it('an isolated account stays isolated through a whole round trip, and no margin-mode request is sent', async () => {
    const creds = sandboxAccount(sandbox, 'bybit', { marginMode: 'isolated' });
    const bybit = h.adapters.bybit;
    const sent = h.recorder.since();
    await bybit.setPositionMode(creds, 'BTCUSDT', 'oneway');
    await bybit.setLeverage(creds, 'BTCUSDT', 5);
    await bybit.placeEntry(creds, { ...entry('ct920-1-e', 'oneway'), stopLossPrice: 57_000 });
    await bybit.placeTakeProfit(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.005, clientOrderId: 'ct920-1-tp1', positionMode: 'oneway', triggerPrice: 61_000 });
    await bybit.setStopLoss(creds, { symbol: 'BTCUSDT', side: 'long', price: 59_000, positionMode: 'oneway' });
    await bybit.closePosition(creds, { symbol: 'BTCUSDT', side: 'long', clientOrderId: 'ct920-1-x', positionMode: 'oneway' });
    expect(routes(sent()).filter((r) => /margin-mode|switch-isolated/.test(r))).toEqual([]);
    expect(sandbox.control.account(creds.uid).marginMode).toBe('isolated');
  });

  it('the key check reads the account-wide margin mode (GET /v5/account/info)', async () => {
    expect(await h.adapters.bybit.checkKey(sandboxAccount(sandbox, 'bybit', { marginMode: 'isolated' }))).toMatchObject({ valid: true, marginMode: 'isolated' });
    expect(await h.adapters.bybit.checkKey(sandboxAccount(sandbox, 'bybit'))).toMatchObject({ valid: true, marginMode: 'cross' });
  });
});
