import ccxt, { type bybit as Bybit } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Credentials } from './control';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bybitClient } from './test-support';

const S = 'BTC/USDT:USDT';
let sandbox: RunningSandbox;
let creds: Credentials;
let ex: Bybit;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, seed: 7, book: deepBook });
});
afterAll(async () => sandbox.close());

beforeEach(async () => {
  sandbox.control.reset();
  creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
  ex = bybitClient(sandbox.url, creds);
  await ex.loadMarkets();
});

describe('bybit sandbox through ccxt', () => {
  it('lists the five linear markets with their steps and minimums', () => {
    expect(Object.keys(ex.markets as object).sort()).toEqual(['BTC/USDT:USDT', 'DOGE/USDT:USDT', 'ETH/USDT:USDT', 'SOL/USDT:USDT', 'XRP/USDT:USDT']);
    const btc = ex.market(S);
    expect(btc.precision).toEqual({ amount: 0.001, price: 0.1 });
    expect(btc.limits.amount?.min).toBe(0.001);
    expect(btc.limits.cost?.min).toBe(5);
    expect(ex.market('SOL/USDT:USDT').precision.amount).toBe(0.1);
    expect(ex.market('XRP/USDT:USDT').precision.amount).toBe(1);
  });

  it('reads the balance, sets leverage, position mode and margin mode', async () => {
    const balance = await ex.fetchBalance();
    expect(balance.USDT).toMatchObject({ free: 10_000, used: 0, total: 10_000 });
    const leverage = await ex.setLeverage(5, S);
    expect(leverage).toMatchObject({ retCode: 0 });
    await expect(ex.setLeverage(5, S)).rejects.toThrow(/110043/);
    await ex.setPositionMode(true, S);
    await ex.setPositionMode(false, S);
    await expect(ex.setPositionMode(false, S)).rejects.toBeInstanceOf(ccxt.NoChange);
    await ex.setMarginMode('isolated', S);
    expect((await ex.fetchTicker(S)).last).toBe(60000);
    expect(sandbox.control.account(creds.uid).marginMode).toBe('isolated');
  });

  it('opens a market entry with attached SL/TP, fetches it by client id, and the TP closes it with PnL', async () => {
    await ex.setLeverage(20, S);
    const created = await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'cp-entry-1', takeProfit: { triggerPrice: 65000 }, stopLoss: { triggerPrice: 58000 } });
    expect(created.clientOrderId).toBe('cp-entry-1');
    const order = await ex.fetchOrder(undefined as unknown as string, S, { orderLinkId: 'cp-entry-1', acknowledged: true });
    expect(order).toMatchObject({ id: created.id, clientOrderId: 'cp-entry-1', status: 'closed', filled: 0.01, average: 60000, side: 'buy', type: 'market' });
    expect(order.fee).toEqual({ cost: 0.33, currency: 'USDT' });
    const [position] = await ex.fetchPositions([S]);
    expect(position).toMatchObject({ symbol: S, side: 'long', contracts: 0.01, entryPrice: 60000, hedged: false, takeProfitPrice: 65000, stopLossPrice: 58000, leverage: 20 });

    sandbox.control.setPrice('BTCUSDT', 64000);
    expect((await ex.fetchPositions([S]))[0]?.unrealizedPnl).toBe(40);
    sandbox.control.setPrice('BTCUSDT', 65100);
    const flat = await ex.fetchPositions([S]);
    expect(flat).toHaveLength(1);
    expect(flat[0]?.contracts).toBe(0);
    expect(await ex.fetchPositions()).toEqual([]);
    // realised: 0.01 * (65100 - 60000) = 51 minus fees 0.33 + 0.35805
    const balance = await ex.fetchBalance();
    expect(balance.USDT?.total).toBeCloseTo(10_000 + 51 - 0.33 - 0.35805, 6);
    const closed = await ex.fetchCanceledAndClosedOrders(S);
    expect(closed.map((o) => [o.side, o.status, o.filled, o.info.stopOrderType]).sort()).toEqual([
      ['buy', 'closed', 0.01, ''],
      ['sell', 'closed', 0.01, 'TakeProfit'],
    ]);
  });

  it('closes with a reduce-only market order and never increases a position', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.02, undefined, { clientOrderId: 'open-1' });
    await ex.createOrder(S, 'market', 'sell', 0.05, undefined, { reduceOnly: true, clientOrderId: 'close-1' });
    expect(await ex.fetchPositions()).toEqual([]);
    const close = (await ex.fetchCanceledAndClosedOrders(S, undefined, undefined, { orderLinkId: 'close-1' }))[0];
    expect(close).toMatchObject({ status: 'closed', filled: 0.02, reduceOnly: true });
    await expect(ex.createOrder(S, 'market', 'sell', 0.01, undefined, { reduceOnly: true })).rejects.toThrow(/110017/);
  });

  it('a one-way order that flips the position leaves no TP/SL or reduce-only order of the old side behind', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { stopLoss: { triggerPrice: 58000 } });
    await ex.createOrder(S, 'limit', 'sell', 0.005, 65000, { reduceOnly: true, clientOrderId: 'old-tp' });
    await ex.createOrder(S, 'market', 'sell', 0.03);
    const [position] = await ex.fetchPositions([S]);
    expect(position).toMatchObject({ side: 'short', contracts: 0.02, entryPrice: 60000 });
    expect(position?.stopLossPrice ?? 0).toBe(0);
    expect(await ex.fetchOpenOrders(S)).toEqual([]);
    sandbox.control.setPrice('BTCUSDT', 59000);
    expect((await ex.fetchPositions([S]))[0]?.unrealizedPnl).toBe(20);
  });

  it('runs a TP ladder: resting reduce-only limit, conditional leg and a partial position TP', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'ladder-entry' });
    await ex.createOrder(S, 'limit', 'sell', 0.004, 62000, { reduceOnly: true, clientOrderId: 'cp-tp1' });
    await ex.createOrder(S, 'market', 'sell', 0.003, undefined, { takeProfitPrice: 63000, clientOrderId: 'cp-tp2' });
    await ex.createOrder(S, 'market', 'sell', 0.003, undefined, { takeProfitPrice: 64000, tradingStopEndpoint: true, positionIdx: 0 });
    const open = await ex.fetchOpenOrders(S);
    expect(open.map((o) => o.clientOrderId ?? o.info.stopOrderType).sort()).toEqual(['PartialTakeProfit', 'cp-tp1', 'cp-tp2']);
    const leg = (await ex.fetchOpenOrders(S, undefined, undefined, { orderLinkId: 'cp-tp2' }))[0];
    expect(leg).toMatchObject({ status: 'open', triggerPrice: 63000, takeProfitPrice: 63000, reduceOnly: true, amount: 0.003 });

    sandbox.control.setPrice('BTCUSDT', 62000);
    expect((await ex.fetchPositions([S]))[0]?.contracts).toBe(0.006);
    sandbox.control.setPrice('BTCUSDT', 63000);
    expect((await ex.fetchPositions([S]))[0]?.contracts).toBe(0.003);
    sandbox.control.setPrice('BTCUSDT', 64000);
    expect((await ex.fetchPositions([S]))[0]?.contracts).toBe(0);
    expect(await ex.fetchOpenOrders(S)).toEqual([]);
  });

  it('cancels an order by client id and by id; unknown orders are OrderNotFound', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    const tp = await ex.createOrder(S, 'limit', 'sell', 0.005, 70000, { reduceOnly: true, clientOrderId: 'tp-cancel' });
    const cancelled = await ex.cancelOrder(undefined as unknown as string, S, { orderLinkId: 'tp-cancel' });
    expect(cancelled.id).toBe(tp.id);
    const history = await ex.fetchCanceledAndClosedOrders(S, undefined, undefined, { orderLinkId: 'tp-cancel' });
    expect(history[0]?.status).toBe('canceled');
    await expect(ex.cancelOrder(String(tp.id), S)).rejects.toBeInstanceOf(ccxt.OrderNotFound);
  });

  it('trails a long with a price-distance trailing stop after its activation price', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    const response = await ex.createOrder(S, 'market', 'sell', 0.01, undefined, { trailingAmount: '500', trailingTriggerPrice: 61000, positionIdx: 0, tpslMode: 'Full' });
    expect(response.id).toBeUndefined();
    sandbox.control.setPrice('BTCUSDT', 60800);
    sandbox.control.setPrice('BTCUSDT', 61200);
    sandbox.control.setPrice('BTCUSDT', 62000);
    sandbox.control.setPrice('BTCUSDT', 61600);
    expect((await ex.fetchPositions([S]))[0]?.contracts).toBe(0.01);
    sandbox.control.setPrice('BTCUSDT', 61500);
    expect((await ex.fetchPositions([S]))[0]?.contracts).toBe(0);
    const exit = (await ex.fetchCanceledAndClosedOrders(S)).find((o) => o.side === 'sell');
    expect(exit).toMatchObject({ side: 'sell', average: 61500, status: 'closed' });
    expect(exit?.info.stopOrderType).toBe('TrailingStop');
  });

  it('supports hedge mode with positionIdx 1 and 2 and closes each side separately', async () => {
    await ex.setPositionMode(true);
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { hedged: true });
    await ex.createOrder(S, 'market', 'sell', 0.02, undefined, { hedged: true });
    const both = await ex.fetchPositions([S]);
    expect(both.map((p) => [p.side, p.contracts, p.hedged])).toEqual([
      ['long', 0.01, true],
      ['short', 0.02, true],
    ]);
    await ex.createOrder(S, 'market', 'sell', 0.01, undefined, { hedged: true, reduceOnly: true });
    const after = await ex.fetchPositions();
    expect(after.map((p) => [p.side, p.contracts])).toEqual([['short', 0.02]]);
    await expect(ex.createOrder(S, 'market', 'buy', 0.01)).rejects.toThrow(/position idx not match position mode/);
  });

  it('reports the API key through query-api', async () => {
    const info = (await ex.privateGetV5UserQueryApi()) as { result: Record<string, unknown> };
    expect(info.result).toMatchObject({ apiKey: creds.apiKey, readOnly: 0, uta: 1, type: 1, ips: ['*'], userID: Number(creds.uid) });
    expect((info.result.permissions as Record<string, unknown>).Wallet).toEqual([]);
  });
});
