import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bitgetClient, bybitClient } from './test-support';

/** D8: the instrument's largest market order and the risk tiers' leverage, as both exchanges refuse them. */
const S = 'BTC/USDT:USDT';
const PRODUCT = { productType: 'USDT-FUTURES', marginCoin: 'USDT' };
let sandbox: RunningSandbox;
/** The sandbox clock runs ahead of the wall clock so a test can pass the per-UID write limits. */
let ahead = 0;
const pace = () => (ahead += 1001);

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

describe('Bybit: maxMktOrderQty and risk limits', () => {
  it('lists maxMktOrderQty 119 for BTCUSDT and refuses a 120 BTC market order (10001); the risk-limit tiers are published', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 1_000_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.loadMarkets();
    expect(ex.market(S).info.lotSizeFilter).toMatchObject({ maxOrderQty: '1190', maxMktOrderQty: '119' });
    expect(await refusal(ex.createOrder(S, 'market', 'buy', 120), ccxt.BadRequest)).toMatchObject({ retCode: 10001, retMsg: 'The number of contracts exceeds maximum limit allowed' });
    expect(sandbox.control.account(creds.uid)).toMatchObject({ orders: [], positions: [] });
    await ex.createOrder(S, 'market', 'buy', 119);
    expect(sandbox.control.account(creds.uid).positions[0]?.size).toBe(119);
    const tiers = (await ex.publicGetV5MarketRiskLimit({ category: 'linear', symbol: 'BTCUSDT' })) as { result: { list: unknown[] } };
    expect(tiers.result.list.slice(0, 2)).toEqual([
      { id: 1, symbol: 'BTCUSDT', riskLimitValue: '2000000', maintenanceMargin: '0.005', initialMargin: '0.01', isLowestRisk: 1, maxLeverage: '100.00', mmDeduction: '' },
      { id: 2, symbol: 'BTCUSDT', riskLimitValue: '10000000', maintenanceMargin: '0.01', initialMargin: '0.02', isLowestRisk: 0, maxLeverage: '50.00', mmDeduction: '10000' },
    ]);
  });

  it('set-leverage above the tier of the position value is refused (110013): 100x on a 7.2 M USDT position', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 1_000_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 60);
    await ex.createOrder(S, 'market', 'buy', 60);
    expect(sandbox.control.account(creds.uid).positions[0]?.size).toBe(120);
    expect(await refusal(ex.setLeverage(100, S), ccxt.BadRequest)).toMatchObject({ retCode: 110013, retMsg: 'Cannot set leverage due to risk limit level.' });
    expect(sandbox.control.account(creds.uid).positions[0]?.leverage).toEqual({ long: 10, short: 10 });
    await ex.setLeverage(50, S);
    const [position] = await ex.fetchPositions([S]);
    expect(position?.info).toMatchObject({ leverage: '50', riskId: 2, riskLimitValue: '10000000' });
  });

  it('an opening order that takes the position past the tier its leverage allows is refused (110090, naming the leverage to use)', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 100_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.setLeverage(100, S);
    const tooBig = await refusal(ex.createOrder(S, 'market', 'buy', 34), ccxt.ExchangeError);
    expect(tooBig).toEqual({
      retCode: 110090,
      retMsg: 'Order placement failed as your position may exceed the max limit. Please adjust your leverage to 50 or below to increase the max. position limit',
      result: {},
      retExtInfo: {},
      time: expect.any(Number),
    });
    await ex.createOrder(S, 'market', 'buy', 33);
    pace();
    expect((await refusal(ex.createOrder(S, 'limit', 'buy', 1, 59_000), ccxt.ExchangeError)).retCode).toBe(110090);
    await ex.createOrder(S, 'market', 'sell', 33, undefined, { reduceOnly: true });
    expect(sandbox.control.account(creds.uid).positions).toEqual([]);
  });
});

describe('Bitget: maxMarketOrderQty and position tiers', () => {
  it('lists maxMarketOrderQty and maxOrderQty, refuses a 120 BTC market order (45112) and publishes the tiers (query-position-lever)', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 1_000_000 });
    const ex = bitgetClient(sandbox.url, creds);
    await ex.loadMarkets();
    expect(ex.market(S).info).toMatchObject({ maxMarketOrderQty: '119', maxOrderQty: '1190' });
    expect(await refusal(ex.createOrder(S, 'market', 'buy', 120), ccxt.ExchangeError)).toMatchObject({ code: '45112', msg: 'more than the maximum order quantity' });
    const tiers = (await ex.publicMixGetV2MixMarketQueryPositionLever({ ...PRODUCT, symbol: 'BTCUSDT' })) as { data: unknown[] };
    expect(tiers.data.slice(0, 2)).toEqual([
      { symbol: 'BTCUSDT', level: '1', startUnit: '0', endUnit: '150000', leverage: '100', keepMarginRate: '0.004' },
      { symbol: 'BTCUSDT', level: '2', startUnit: '150000', endUnit: '900000', leverage: '75', keepMarginRate: '0.005' },
    ]);
  });

  it('an order past the tier of its leverage is refused (40921); set-leverage above the tier of the position is refused (45044)', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 100_000 });
    const ex = bitgetClient(sandbox.url, creds);
    const leverage = (value: number) => ex.privateMixPostV2MixAccountSetLeverage({ symbol: 'BTCUSDT', ...PRODUCT, leverage: String(value) });
    await leverage(100);
    expect(await refusal(ex.createOrder(S, 'market', 'buy', 3), ccxt.ExchangeError)).toMatchObject({ code: '40921', msg: 'The order size cannot exceed the maximum size of the positionLevel' });
    pace();
    await leverage(50);
    pace();
    await ex.createOrder(S, 'market', 'buy', 16);
    pace();
    expect(await refusal(leverage(75), ccxt.ExchangeError)).toMatchObject({ code: '45044', msg: 'Leverage is not within the suitable range after adjustment' });
    pace();
    await leverage(40);
    const [position] = await ex.fetchPositions([S]);
    expect(position?.info).toMatchObject({ leverage: '40', keepMarginRate: '0.01', total: '16' });
  });
});
