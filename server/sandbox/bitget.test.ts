import ccxt, { type bitget as Bitget } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Credentials } from './control';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bitgetClient } from './test-support';

const S = 'BTC/USDT:USDT';
let sandbox: RunningSandbox;
let creds: Credentials;
let ex: Bitget;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, seed: 11, book: deepBook });
});
afterAll(async () => sandbox.close());

beforeEach(async () => {
  sandbox.control.reset();
  creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
  ex = bitgetClient(sandbox.url, creds);
  await ex.loadMarkets();
});

describe('bitget sandbox through ccxt', () => {
  it('lists the five USDT-M contracts with their steps and minimums', () => {
    expect(Object.keys(ex.markets as object).sort()).toEqual(['BTC/USDT:USDT', 'DOGE/USDT:USDT', 'ETH/USDT:USDT', 'SOL/USDT:USDT', 'XRP/USDT:USDT']);
    expect(ex.market(S)).toMatchObject({ precision: { amount: 0.001, price: 0.1 }, limits: { amount: { min: 0.001 }, cost: { min: 5 } } });
    expect(ex.market('DOGE/USDT:USDT').precision).toEqual({ amount: 1, price: 0.00001 });
    expect(ex.market('ETH/USDT:USDT').precision).toEqual({ amount: 0.01, price: 0.01 });
  });

  it('probes UTA like ccxt does by default and falls back to the classic V2 surface', async () => {
    const probing = bitgetClient(sandbox.url, creds, { options: { defaultType: 'swap', fetchMarkets: { types: ['swap'] } } });
    await probing.loadMarkets();
    expect(probing.options.uta).toBe(false);
    expect((await probing.fetchBalance()).USDT?.total).toBe(10_000);
  });

  it('reads the balance, sets leverage, position mode and margin mode', async () => {
    expect((await ex.fetchBalance()).USDT).toMatchObject({ free: 10_000, total: 10_000 });
    const leverage = (await ex.setLeverage(20, S)) as { data: Record<string, string> };
    expect(leverage.data).toMatchObject({ longLeverage: '20', shortLeverage: '20', marginMode: 'crossed' });
    await ex.setPositionMode(true, S);
    expect(sandbox.control.account(creds.uid).positionMode).toBe('hedge');
    await ex.setPositionMode(false, S);
    await ex.setMarginMode('isolated', S, { marginCoin: 'USDT' });
    expect(await ex.fetchLeverage(S)).toMatchObject({ marginMode: 'isolated', longLeverage: 20, shortLeverage: 20 });
    expect((await ex.fetchTicker(S)).last).toBe(60000);
    const positions = await ex.fetchPositions([S]);
    expect(positions).toEqual([]);
  });

  it('opens a market entry with preset TP/SL, fetches it by clientOid; the SL closes it and the balance follows', async () => {
    await expect(ex.setLeverage(10, S)).rejects.toThrow(/"code":"45054","msg":"No change in leverage"/);
    const created = await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'cp-entry-1', takeProfit: { triggerPrice: 65000 }, stopLoss: { triggerPrice: 58000 } });
    expect(created).toMatchObject({ clientOrderId: 'cp-entry-1' });
    const order = await ex.fetchOrder(undefined as unknown as string, S, { clientOrderId: 'cp-entry-1' });
    expect(order).toMatchObject({ id: created.id, status: 'closed', filled: 0.01, average: 60000, side: 'buy', reduceOnly: false });
    expect(order.fee).toEqual({ cost: 0.36, currency: 'USDT' });
    const [position] = await ex.fetchPositions([S]);
    expect(position).toMatchObject({ side: 'long', contracts: 0.01, entryPrice: 60000, hedged: false, marginMode: 'cross' });
    const plans = await ex.fetchOpenOrders(S, undefined, undefined, { trigger: true, planType: 'profit_loss' });
    expect(plans.map((p) => [p.info.planType, p.triggerPrice]).sort()).toEqual([
      ['pos_loss', 58000],
      ['pos_profit', 65000],
    ]);

    sandbox.control.setPrice('BTCUSDT', 57900);
    expect(await ex.fetchPositions([S])).toEqual([]);
    // loss 0.01 * (57900 - 60000) = -21, fees 0.36 + 0.3474
    expect((await ex.fetchBalance()).USDT?.total).toBeCloseTo(10_000 - 21 - 0.36 - 0.3474, 6);
    expect(await ex.fetchOpenOrders(S, undefined, undefined, { trigger: true, planType: 'profit_loss' })).toEqual([]);
  });

  it('rejects a duplicate clientOid with 45034 (DuplicateOrderId via the exceptions override)', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'dup-1' });
    await expect(ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'dup-1' })).rejects.toBeInstanceOf(ccxt.DuplicateOrderId);
  });

  it('runs a TP ladder: reduce-only limit, profit_plan leg, pos_profit; reduce-only never flips the position', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    await ex.createOrder(S, 'limit', 'sell', 0.004, 62000, { reduceOnly: true, clientOrderId: 'cp-tp1' });
    await ex.createOrder(S, 'market', 'sell', 0.003, undefined, { takeProfitPrice: 63000, planType: 'profit_plan', clientOrderId: 'cp-tp2' });
    await ex.createOrder(S, 'market', 'sell', 0.003, undefined, { takeProfitPrice: 64000, clientOrderId: 'cp-tp3' });
    const pending = await ex.fetchOpenOrders(S);
    expect(pending.map((o) => o.clientOrderId)).toEqual(['cp-tp1']);
    sandbox.control.setPrice('BTCUSDT', 62100);
    expect((await ex.fetchPositions([S]))[0]?.contracts).toBe(0.006);
    const filled = await ex.fetchOrder(undefined as unknown as string, S, { clientOrderId: 'cp-tp1' });
    expect(filled).toMatchObject({ status: 'closed', average: 62000, filled: 0.004 });
    sandbox.control.setPrice('BTCUSDT', 63000);
    expect((await ex.fetchPositions([S]))[0]?.contracts).toBe(0.003);
    sandbox.control.setPrice('BTCUSDT', 64000);
    expect(await ex.fetchPositions([S])).toEqual([]);
    await expect(ex.createOrder(S, 'market', 'sell', 0.01, undefined, { reduceOnly: true })).rejects.toThrow(/22002/);
  });

  it('trails with track_plan (callbackRatio %) and moving_plan (rangeRate %)', async () => {
    sandbox.control.setStrictness({ bitgetOneWayReduceOnlyTriggerRefused: false });
    await ex.createOrder(S, 'market', 'buy', 0.02);
    await ex.createOrder(S, 'market', 'sell', 0.01, undefined, { trailingPercent: '1', trailingTriggerPrice: 61000, reduceOnly: true, clientOrderId: 'cp-trail-1' });
    await ex.privateMixPostV2MixOrderPlaceTpslOrder({
      symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT', planType: 'moving_plan', triggerPrice: '61000',
      triggerType: 'mark_price', holdSide: 'buy', size: '0.01', rangeRate: '2', clientOid: 'cp-move-1',
    });
    const trailing = await ex.fetchOpenOrders(S, undefined, undefined, { trailing: true });
    expect(trailing.map((o) => o.clientOrderId)).toEqual(['cp-trail-1']);
    for (const price of [61000, 63000]) sandbox.control.setPrice('BTCUSDT', price);
    sandbox.control.setPrice('BTCUSDT', 62370); // 1% below 63000
    expect((await ex.fetchPositions([S]))[0]?.contracts).toBe(0.01);
    sandbox.control.setPrice('BTCUSDT', 61740); // 2% below 63000
    expect(await ex.fetchPositions([S])).toEqual([]);
    const history = (await ex.privateMixGetV2MixOrderOrdersPlanHistory({ productType: 'USDT-FUTURES', planType: 'profit_loss' })) as { data: { entrustedList: Array<Record<string, string>> } };
    expect(history.data.entrustedList.map((o) => [o.clientOid, o.planStatus])).toEqual([['cp-move-1', 'executed']]);
  });

  it('supports hedge mode (tradeSide open/close with the position side) and flash close', async () => {
    await ex.setPositionMode(true);
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { hedged: true });
    await ex.createOrder(S, 'market', 'sell', 0.02, undefined, { hedged: true });
    const both = await ex.fetchPositions([S]);
    expect(both.map((p) => [p.side, p.contracts, p.hedged]).sort()).toEqual([
      ['long', 0.01, true],
      ['short', 0.02, true],
    ]);
    const close = await ex.createOrder(S, 'market', 'sell', 0.01, undefined, { hedged: true, reduceOnly: true, clientOrderId: 'close-long' });
    const fetched = await ex.fetchOrder(String(close.id), S);
    expect(fetched).toMatchObject({ side: 'sell', reduceOnly: true, filled: 0.01 });
    expect(fetched.info).toMatchObject({ tradeSide: 'close', posSide: 'long', side: 'buy', posMode: 'hedge_mode' });
    expect((await ex.fetchPositions()).map((p) => p.side)).toEqual(['short']);
    await expect(ex.createOrder(S, 'market', 'buy', 0.01)).rejects.toThrow(/40774/);
    await ex.closePosition(S, 'short');
    expect(await ex.fetchPositions()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // close-positions: 1 per second per UID
    await expect(ex.closePosition(S, 'short')).rejects.toThrow(/"code":"45006","msg":"Insufficient position"/);
  });

  it('cancels by clientOid; unknown orders are OrderNotFound (40109)', async () => {
    await ex.createOrder(S, 'limit', 'buy', 0.01, 50000, { clientOrderId: 'rest-1' });
    expect((await ex.fetchBalance()).USDT?.used).toBeCloseTo(50, 6);
    const cancelled = await ex.cancelOrder(undefined as unknown as string, S, { clientOrderId: 'rest-1' });
    expect(cancelled.clientOrderId).toBe('rest-1');
    await expect(ex.fetchOrder('999999', S)).rejects.toBeInstanceOf(ccxt.OrderNotFound);
    await expect(ex.cancelOrder(undefined as unknown as string, S, { clientOrderId: 'rest-1' })).rejects.toBeInstanceOf(ccxt.OrderNotFound);
  });

  it('cancels older reduce-only orders when a new one would exceed the position (answer without orderId)', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    await ex.createOrder(S, 'limit', 'sell', 0.006, 70000, { reduceOnly: true, clientOrderId: 'ro-old' });
    await ex.createOrder(S, 'limit', 'sell', 0.004, 71000, { reduceOnly: true, clientOrderId: 'ro-mid' });
    const newest = await ex.createOrder(S, 'limit', 'sell', 0.005, 72000, { reduceOnly: true, clientOrderId: 'ro-new' });
    expect(newest.id).toBeUndefined();
    expect(newest.clientOrderId).toBe('ro-new');
    expect((await ex.fetchOpenOrders(S)).map((o) => o.clientOrderId).sort()).toEqual(['ro-mid', 'ro-new']);
    expect((await ex.fetchOrder(undefined as unknown as string, S, { clientOrderId: 'ro-old' })).status).toBe('canceled');
  });

  it('lists and cancels TP/SL plans like ccxt asks for them', async () => {
    await ex.createOrder(S, 'market', 'buy', 0.01);
    const plan = await ex.createOrder(S, 'market', 'sell', 0.005, undefined, { stopLossPrice: 55000, planType: 'loss_plan', clientOrderId: 'sl-leg' });
    const open = await ex.fetchOpenOrders(S, undefined, undefined, { trigger: true, planType: 'profit_loss' });
    expect(open.map((o) => [o.clientOrderId, o.triggerPrice, o.amount, o.status])).toEqual([['sl-leg', 55000, 0.005, 'open']]);
    await ex.cancelOrder(String(plan.id), S, { trigger: true, planType: 'loss_plan' });
    expect(await ex.fetchOpenOrders(S, undefined, undefined, { trigger: true, planType: 'profit_loss' })).toEqual([]);
    await expect(ex.cancelOrder(String(plan.id), S, { trigger: true, planType: 'loss_plan' })).rejects.toThrow(/43025/);
    sandbox.control.setPrice('BTCUSDT', 54000);
    expect((await ex.fetchPositions([S]))[0]?.contracts).toBe(0.01);
  });

  it('reports the API key permissions and IPs through /api/v2/spot/account/info', async () => {
    const info = (await ex.privateSpotGetV2SpotAccountInfo()) as { data: Record<string, unknown> };
    expect(info.data).toMatchObject({ userId: creds.uid, ips: '', authorities: ['coow', 'cpow', 'stow'] });
  });
});
