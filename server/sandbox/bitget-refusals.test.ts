import ccxt, { type bitget as Bitget } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Credentials } from './control';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bitgetClient } from './test-support';

const S = 'BTC/USDT:USDT';
const PRODUCT = { productType: 'USDT-FUTURES', marginCoin: 'USDT' };
let sandbox: RunningSandbox;
let creds: Credentials;
let ex: Bitget;
/**
 * The sandbox clock runs ahead of the wall clock, so a test can pass the per-UID limits (Bitget's window is
 * ±30 s); `frozen` stops it, so that a burst stays inside one rate-limit window however loaded the machine is.
 */
let ahead = 0;
let frozen: number | undefined;
const pace = () => {
  ahead += 1001;
  if (frozen !== undefined) frozen += 1001;
};

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, book: deepBook, now: () => frozen ?? Date.now() + ahead });
});
afterAll(async () => sandbox.close());
beforeEach(async () => {
  ahead = 0;
  frozen = undefined;
  sandbox.control.reset();
  creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 100_000 });
  ex = bitgetClient(sandbox.url, creds);
  await ex.loadMarkets();
});

/** The ccxt error class and Bitget's exact answer (HTTP 400 {code, msg}) of a refused call. */
async function refused(call: Promise<unknown>, errorClass: new (...args: never[]) => Error, code: string, msg: string): Promise<void> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(errorClass);
  expect(JSON.parse((error as Error).message.replace(/^bitget /, ''))).toMatchObject({ code, msg });
}

const tpsl = (params: Record<string, unknown>) => ex.privateMixPostV2MixOrderPlaceTpslOrder({ symbol: 'BTCUSDT', ...PRODUCT, triggerType: 'mark_price', holdSide: 'buy', ...params });
const state = () => sandbox.control.account(creds.uid);
const plans = () => state().orders.filter((o) => o.labels.planType !== undefined && o.status === 'untriggered');

describe('Bitget refuses TP/SL on the wrong side of the market (A1, B2)', () => {
  it('position TP/SL against the mark price: 40917 long stop, 45122 short stop (ccxt InvalidOrder), 40915 long take-profit', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    sandbox.control.setPrice('BTCUSDT', 59000);
    await refused(tpsl({ planType: 'pos_loss', triggerPrice: '59000' }), ccxt.InvalidOrder, '40917', 'Stop price for long positions please < mark price 59000');
    await refused(tpsl({ planType: 'pos_profit', triggerPrice: '58990' }), ccxt.ExchangeError, '40915', 'Long position take profit price please > mark price');
    await refused(tpsl({ planType: 'loss_plan', triggerPrice: '59000', size: '0.005', triggerType: 'fill_price' }), ccxt.ExchangeError, '40834', 'The stop loss price of the long position should be less than the current price');
    await refused(tpsl({ planType: 'profit_plan', triggerPrice: '59000', size: '0.005', triggerType: 'fill_price' }), ccxt.ExchangeError, '40830', 'The take profit price of the long position should be greater than the current price');
    expect(plans()).toEqual([]);
    const short = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const shorter = bitgetClient(sandbox.url, short);
    await shorter.createOrder(S, 'market', 'sell', 0.01);
    const shortStop = shorter.privateMixPostV2MixOrderPlaceTpslOrder({ symbol: 'BTCUSDT', ...PRODUCT, planType: 'pos_loss', triggerPrice: '58000', triggerType: 'mark_price', holdSide: 'sell' });
    await refused(shortStop, ccxt.InvalidOrder, '45122', 'Short position stop loss price please > mark price 59000');
    const shortTp = shorter.privateMixPostV2MixOrderPlaceTpslOrder({ symbol: 'BTCUSDT', ...PRODUCT, planType: 'pos_profit', triggerPrice: '59500', holdSide: 'sell' });
    await refused(shortTp, ccxt.ExchangeError, '40832', 'The take profit price of short positions should be less than the current price');
  });

  it('the presets of an entry are checked against the current price (40834, 40830); nothing is applied', async () => {
    await refused(ex.createOrder(S, 'market', 'buy', 0.01, undefined, { stopLoss: { triggerPrice: 60100 } }), ccxt.ExchangeError, '40834', 'The stop loss price of the long position should be less than the current price');
    await refused(ex.createOrder(S, 'market', 'buy', 0.01, undefined, { takeProfit: { triggerPrice: 59000 } }), ccxt.ExchangeError, '40830', 'The take profit price of the long position should be greater than the current price');
    expect(state()).toMatchObject({ orders: [], positions: [] });
  });

  it('40833 (strictness bitgetStopAtEntryRefused): a long stop at the average open price is refused, even with the market above it', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    sandbox.control.setPrice('BTCUSDT', 61000);
    await refused(tpsl({ planType: 'pos_loss', triggerPrice: '60000' }), ccxt.ExchangeError, '40833', 'The stop loss price of a long position should be less than the average opening price');
    sandbox.control.setStrictness({ bitgetStopAtEntryRefused: false });
    await tpsl({ planType: 'pos_loss', triggerPrice: '60000' });
    expect(plans().map((o) => [o.labels.planType, o.triggerPrice])).toEqual([['pos_loss', 60000]]);
  });
});

describe('Bitget position TP/SL: one each (B6), changed through modify-tpsl-order and place-pos-tpsl', () => {
  it('a second pos_loss / pos_profit is refused (43031 / 43030); switched off it replaces the first', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { stopLoss: { triggerPrice: 58000 }, takeProfit: { triggerPrice: 65000 } });
    await refused(tpsl({ planType: 'pos_loss', triggerPrice: '59000' }), ccxt.ExchangeError, '43031', 'Stop loss order already existed');
    await refused(tpsl({ planType: 'pos_profit', triggerPrice: '64000' }), ccxt.ExchangeError, '43030', 'Take profit order already existed');
    expect(plans().map((o) => o.triggerPrice).sort()).toEqual([58000, 65000]);
    sandbox.control.setStrictness({ bitgetSecondPositionTpslRefused: false });
    await tpsl({ planType: 'pos_loss', triggerPrice: '59000' });
    expect(plans().map((o) => o.triggerPrice).sort()).toEqual([59000, 65000]);
  });

  it('modify-tpsl-order moves the stop (checked like a new one); an unknown order is 43020', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    const placed = (await tpsl({ planType: 'pos_loss', triggerPrice: '58000', clientOid: 'sl-1' })) as { data: { orderId: string } };
    const modify = (params: Record<string, unknown>) => ex.privateMixPostV2MixOrderModifyTpslOrder({ symbol: 'BTCUSDT', ...PRODUCT, size: '', ...params });
    await modify({ orderId: placed.data.orderId, triggerPrice: '59000' });
    expect(plans().map((o) => [o.clientOrderId, o.triggerPrice])).toEqual([['sl-1', 59000]]);
    await refused(modify({ clientOid: 'sl-1', triggerPrice: '60500' }), ccxt.InvalidOrder, '40917', 'Stop price for long positions please < mark price 60000');
    await refused(modify({ clientOid: 'nope', triggerPrice: '59500' }), ccxt.ExchangeError, '43020', 'Stop profit and stop loss order does not exist');
    sandbox.control.setPrice('BTCUSDT', 58990);
    expect(state().positions).toEqual([]);
  });

  it('place-pos-tpsl sets the position take-profit and stop-loss in one call', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.02);
    const answer = (await ex.privateMixPostV2MixOrderPlacePosTpsl({
      symbol: 'BTCUSDT', ...PRODUCT, holdSide: 'buy', stopSurplusTriggerPrice: '63000', stopSurplusTriggerType: 'mark_price',
      stopLossTriggerPrice: '57000', stopLossTriggerType: 'mark_price', stopLossSize: '0.01', stopSurplusClientOid: 'tp-a', stopLossClientOid: 'sl-a',
    })) as { data: Array<Record<string, string>> };
    expect(answer.data).toHaveLength(2);
    expect(plans().map((o) => [o.clientOrderId, o.labels.planType, o.triggerPrice, o.qty])).toEqual([
      ['tp-a', 'pos_profit', 63000, 0],
      ['sl-a', 'loss_plan', 57000, 0.01],
    ]);
    const bad = ex.privateMixPostV2MixOrderPlacePosTpsl({ symbol: 'BTCUSDT', ...PRODUCT, holdSide: 'buy', stopSurplusTriggerPrice: '64000', stopSurplusSize: '0.005', stopLossTriggerPrice: '61000', stopLossSize: '0.005' });
    await refused(bad, ccxt.InvalidOrder, '40917', 'Stop price for long positions please < mark price 60000');
    expect(plans()).toHaveLength(2);
    await refused(
      ex.privateMixPostV2MixOrderPlacePosTpsl({ symbol: 'BTCUSDT', ...PRODUCT, holdSide: 'buy', stopSurplusTriggerPrice: '64000' }),
      ccxt.ExchangeError,
      '43030',
      'Take profit order already existed',
    );
  });
});

describe('Bitget per-order marginMode (B3), product-wide position mode (B4), isolated hedge leverage (B10)', () => {
  it('an order whose marginMode differs from the symbol gets 45117 while anything is open there, closes included', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    await refused(ex.createOrder(S, 'market', 'sell', 0.01, undefined, { reduceOnly: true, marginMode: 'isolated' }), ccxt.ExchangeError, '45117', 'Currently holding positions or orders, the margin mode cannot be adjusted');
    expect(state().positions[0]?.size).toBe(0.01);
    // With nothing open on ETH, the order's mode becomes the symbol's.
    await ex.createOrder('ETH/USDT:USDT', 'market', 'buy', 1, undefined, { marginMode: 'isolated' });
    expect((await ex.fetchPositions(['ETH/USDT:USDT']))[0]?.marginMode).toBe('isolated');
    const missing = await ex.privateMixPostV2MixOrderPlaceOrder({ symbol: 'BTCUSDT', ...PRODUCT, size: '0.01', side: 'buy', orderType: 'market' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ccxt.BadRequest);
    expect((missing as Error).message).toContain('"code":"400172"');
    expect(state().orders).toHaveLength(2);
  });

  it('set-position-mode fails with 40920 while any symbol holds anything, also for the same mode (strictness bitgetSamePositionModeRefused)', async () => {
    await ex.setPositionMode(false);
    await ex.createOrder('ETH/USDT:USDT', 'limit', 'buy', 1, 2000);
    await refused(ex.setPositionMode(true, S), ccxt.ExchangeError, '40920', 'Position or order exists, the position mode cannot be switched');
    await refused(ex.setPositionMode(false, S), ccxt.ExchangeError, '40920', 'Position or order exists, the position mode cannot be switched');
    sandbox.control.setStrictness({ bitgetSamePositionModeRefused: false });
    await ex.setPositionMode(false, S);
    await refused(ex.setPositionMode(true, S), ccxt.ExchangeError, '40920', 'Position or order exists, the position mode cannot be switched');
    expect(state().positionMode).toBe('oneway');
  });

  it('set-leverage in isolated hedge mode needs holdSide (40808, ccxt issue 24700); an unchanged leverage is 45054', async () => {
    await ex.setPositionMode(true);
    await ex.setMarginMode('isolated', S, { marginCoin: 'USDT' });
    await refused(ex.setLeverage(20, S), ccxt.InvalidOrder, '40808', 'Parameter verification exception double fixed, hold side is null');
    await ex.setLeverage(20, S, { holdSide: 'long' });
    await ex.privateMixPostV2MixAccountSetLeverage({ symbol: 'BTCUSDT', ...PRODUCT, longLeverage: '20', shortLeverage: '5' });
    expect(await ex.fetchLeverage(S)).toMatchObject({ longLeverage: 20, shortLeverage: 5 });
    pace();
    await refused(ex.setLeverage(5, S, { holdSide: 'short' }), ccxt.ExchangeError, '45054', 'No change in leverage');
  });
});

describe('Bitget plan orders: caps (B7), reduce-only trigger orders in one-way mode (B5)', () => {
  it('at most 10 trigger orders (40889) and 10 TP/SL orders (40890) per symbol', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.1);
    for (let n = 1; n <= 10; n += 1) {
      if (n % 9 === 0) pace();
      await ex.createOrder(S, 'market', 'buy', 0.001, undefined, { triggerPrice: 61000 + n });
    }
    pace();
    await refused(ex.createOrder(S, 'market', 'buy', 0.001, undefined, { triggerPrice: 62000 }), ccxt.ExchangeError, '40889', 'The plan order of this contract has reached the upper limit');
    for (let n = 1; n <= 10; n += 1) {
      if (n % 9 === 0) pace();
      await tpsl({ planType: 'profit_plan', triggerPrice: String(63000 + n), size: '0.001' });
    }
    pace();
    await refused(tpsl({ planType: 'loss_plan', triggerPrice: '55000', size: '0.001' }), ccxt.ExchangeError, '40890', 'The order of stop-profit and stop-loss for this contract has reached the upper limit');
    expect(plans()).toHaveLength(20);
  });

  it('a track_plan with reduceOnly YES in one-way mode is 22042 (strictness bitgetOneWayReduceOnlyTriggerRefused)', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    const trail = () => ex.createOrder(S, 'market', 'sell', 0.01, undefined, { trailingPercent: '1', trailingTriggerPrice: 61000, reduceOnly: true });
    await refused(trail(), ccxt.ExchangeError, '22042', 'When a one-way position is held, trigger order cannot only reduce positions.');
    expect(plans()).toEqual([]);
    sandbox.control.setStrictness({ bitgetOneWayReduceOnlyTriggerRefused: false });
    await trail();
    expect(plans().map((o) => o.labels.planType)).toEqual(['track_plan']);
  });
});

describe('Bitget codes (B12)', () => {
  it('45034 duplicate clientOid; no position: 22002 place-order, 45006 flash close, 40837/45068 TP/SL, 43023 plan close; 40891 TP/SL over the position', async () => {
    const raw = bitgetClient(sandbox.url, creds, { exceptions: {} });
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'same' });
    await refused(raw.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'same' }), ccxt.ExchangeError, '45034', 'clientOid duplicate');
    await refused(tpsl({ planType: 'profit_plan', triggerPrice: '65000', size: '0.02' }), ccxt.ExchangeError, '40891', 'Insufficient position, can not set take profit or stop loss');
    await ex.createOrder(S, 'market', 'sell', 0.01, undefined, { reduceOnly: true });
    await refused(ex.createOrder(S, 'market', 'sell', 0.01, undefined, { reduceOnly: true }), ccxt.ExchangeError, '22002', 'No position to close');
    await refused(ex.closePosition(S), ccxt.ExchangeError, '45006', 'Insufficient position');
    await refused(tpsl({ planType: 'profit_plan', triggerPrice: '65000', size: '0.01' }), ccxt.ExchangeError, '40837', 'There is no position in this position, so stop-profit and stop-loss orders cannot be made');
    await refused(tpsl({ planType: 'pos_loss', triggerPrice: '55000' }), ccxt.ExchangeError, '45068', 'There is no position temporarily, and the order of TP and SL cannot be carried out');
    pace();
    await ex.setPositionMode(true);
    const closePlan = ex.createOrder(S, 'market', 'sell', 0.01, undefined, { triggerPrice: 55000, reduceOnly: true, hedged: true });
    await refused(closePlan, ccxt.ExchangeError, '43023', 'Insufficient position, can not set profit or stop loss');
    expect(plans()).toEqual([]);
  });

  it('40757: a one-way reduce-only order larger than the position (strictness bitgetOversizedReduceOnlyRefused); off, it is cut', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    await refused(ex.createOrder(S, 'market', 'sell', 0.02, undefined, { reduceOnly: true }), ccxt.ExchangeError, '40757', 'Not enough position is available.');
    expect(state().positions[0]?.size).toBe(0.01);
    sandbox.control.setStrictness({ bitgetOversizedReduceOnlyRefused: false });
    await ex.createOrder(S, 'market', 'sell', 0.02, undefined, { reduceOnly: true });
    expect(state().positions).toEqual([]);
  });
});

describe('Bitget per-account read limits (B9) and the spot permission of account info (B13)', () => {
  it('all-position 5/s, order detail and plan lists 10/s: the next one is HTTP 429 (ccxt DDoSProtection)', async () => {
    frozen = Date.now();
    for (let n = 0; n < 5; n += 1) await ex.fetchPositions();
    await expect(ex.fetchPositions()).rejects.toBeInstanceOf(ccxt.DDoSProtection);
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'read-me' });
    pace();
    for (let n = 0; n < 10; n += 1) await ex.fetchOrder(undefined as unknown as string, S, { clientOrderId: 'read-me' });
    await expect(ex.fetchOrder(undefined as unknown as string, S, { clientOrderId: 'read-me' })).rejects.toBeInstanceOf(ccxt.DDoSProtection);
    for (let n = 0; n < 10; n += 1) await ex.fetchOpenOrders(S, undefined, undefined, { trigger: true, planType: 'profit_loss' });
    await expect(ex.fetchOpenOrders(S, undefined, undefined, { trigger: true, planType: 'profit_loss' })).rejects.toBeInstanceOf(ccxt.DDoSProtection);
    await expect(ex.fetchCanceledAndClosedOrders(S, undefined, undefined, { trigger: true, planType: 'profit_loss' })).resolves.toEqual([]);
    pace();
    await expect(ex.fetchPositions()).resolves.toHaveLength(1);
  });

  it('spot/account/info needs spot read permission (futures-only key: 40014, ccxt PermissionDenied) and allows 1 call per second', async () => {
    frozen = Date.now();
    const futuresOnly = sandbox.control.createAccount({ exchange: 'bitget', permissions: { spot: false } });
    await refused(bitgetClient(sandbox.url, futuresOnly).privateSpotGetV2SpotAccountInfo(), ccxt.PermissionDenied, '40014', 'Incorrect permissions, need spot permissions');
    await expect(ex.privateSpotGetV2SpotAccountInfo()).resolves.toMatchObject({ data: { userId: creds.uid } });
    await expect(ex.privateSpotGetV2SpotAccountInfo()).rejects.toBeInstanceOf(ccxt.DDoSProtection);
    pace();
    await expect(ex.privateSpotGetV2SpotAccountInfo()).resolves.toMatchObject({ data: { authorities: ['coow', 'cpow', 'stow'] } });
  });
});
