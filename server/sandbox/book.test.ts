import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bitgetClient, bybitClient } from './test-support';

const S = 'BTC/USDT:USDT';
/**
 * Two levels of 0.01 BTC each side: asks 60006 / 60012, bids 59994 / 59988 (2 bps spread, 1 bp apart). It
 * refills in 10 minutes, so the wall-clock time a loaded machine takes between two requests refills nothing.
 */
const thinBook = { levels: 2, levelSize: 0.01, spread: 0.0002, step: 0.0001, refillMs: 600_000 };
let sandbox: RunningSandbox;
/** The sandbox clock runs ahead of the wall clock by `ahead` ms (within both exchanges' timestamp windows). */
let ahead = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, now: () => Date.now() + ahead, book: { symbols: { BTCUSDT: thinBook } } });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  ahead = 0;
  sandbox.control.reset();
});

describe('market orders fill against a small order book', () => {
  it('Bybit: a market buy larger than the book fills what is there, at the levels taken; the rest is cancelled (Cancelled, cumExecQty)', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.03, undefined, { clientOrderId: 'thin-1' });
    const order = await ex.fetchOrder(undefined as unknown as string, S, { orderLinkId: 'thin-1', acknowledged: true });
    expect(order).toMatchObject({ status: 'canceled', amount: 0.03, filled: 0.02, remaining: 0, average: 60009 });
    expect(order.info).toMatchObject({ orderStatus: 'Cancelled', cumExecQty: '0.02', avgPrice: '60009', leavesQty: '0', cancelType: 'UNKNOWN' });
    expect(order.fee?.cost).toBeCloseTo(0.02 * 60009 * 0.00055, 9);
    const [position] = await ex.fetchPositions([S]);
    expect(position).toMatchObject({ contracts: 0.02, entryPrice: 60009 });
    // Nothing left until the book refills: the next market order fills nothing.
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'thin-2' });
    expect(sandbox.control.account(creds.uid).orders.find((o) => o.clientOrderId === 'thin-2')).toMatchObject({ status: 'cancelled', filledQty: 0, cancelReason: 'immediateOrCancel' });
  });

  it('Bitget: the same sweep reports state canceled with baseVolume and priceAvg of what filled', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const ex = bitgetClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'sell', 0.025, undefined, { clientOrderId: 'thin-short' });
    const order = await ex.fetchOrder(undefined as unknown as string, S, { clientOrderId: 'thin-short' });
    expect(order).toMatchObject({ status: 'canceled', amount: 0.025, filled: 0.02, average: 59991 });
    expect(order.info).toMatchObject({ state: 'canceled', baseVolume: '0.02', priceAvg: '59991', size: '0.025' });
    expect((await ex.fetchPositions([S]))[0]).toMatchObject({ side: 'short', contracts: 0.02, entryPrice: 59991 });
  });

  it('the book refills over refillMs, so later orders are not starved', async () => {
    sandbox.control.setBook({ refillMs: 20_000 }, 'BTCUSDT');
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const ex = bitgetClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.02, undefined, { clientOrderId: 'drain' });
    // Nothing in reach: Bitget refuses the market order (22045, strictness bitgetEmptyBookRefused).
    await expect(ex.createOrder(S, 'market', 'buy', 0.02, undefined, { clientOrderId: 'starved' })).rejects.toThrow(/"code":"22045"/);
    ahead = 25_000; // within Bitget's 30-second timestamp window
    await ex.createOrder(S, 'market', 'buy', 0.02, undefined, { clientOrderId: 'refilled' });
    const byId = (id: string) => sandbox.control.account(creds.uid).orders.find((o) => o.clientOrderId === id);
    expect(byId('starved')).toBeUndefined();
    expect(byId('refilled')).toMatchObject({ filledQty: 0.02, avgPrice: 60009, status: 'filled' });
  });

  it('a marketable limit order takes the levels up to its price and rests for the rest; the ticker shows the book', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const ex = bybitClient(sandbox.url, creds);
    const ticker = await ex.fetchTicker(S);
    expect(ticker).toMatchObject({ bid: 59994, ask: 60006, bidVolume: 0.01, askVolume: 0.01, last: 60000 });
    await ex.createOrder(S, 'limit', 'buy', 0.03, 60006, { clientOrderId: 'lim' });
    const order = await ex.fetchOrder(undefined as unknown as string, S, { orderLinkId: 'lim', acknowledged: true });
    expect(order).toMatchObject({ status: 'open', filled: 0.01, remaining: 0.02, average: 60006 });
    expect(order.info.orderStatus).toBe('PartiallyFilled');
  });

  it('a triggered stop sweeps the book too: a thin book closes part of the position at slipped prices', async () => {
    sandbox.control.setBook({ levelSize: 1 }, 'BTCUSDT');
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const ex = bybitClient(sandbox.url, creds);
    await ex.createOrder(S, 'market', 'buy', 0.03, undefined, { stopLoss: { triggerPrice: 59000 } });
    sandbox.control.setBook({ levelSize: 0.01 }, 'BTCUSDT');
    sandbox.control.setPrice('BTCUSDT', 58900);
    const [position] = await ex.fetchPositions([S]);
    expect(position?.contracts).toBeCloseTo(0.01, 9);
    const stop = sandbox.control.account(creds.uid).orders.find((o) => o.labels.stopOrderType === 'StopLoss');
    // bids at 58900 * (1 - 0.0001) and * (1 - 0.0002), rounded down to the tick
    expect(stop).toMatchObject({ status: 'cancelled', filledQty: 0.02, avgPrice: (58894.1 + 58888.2) / 2 });
  });

  it('a deep book fills everything at the mark price; books are set per symbol through the control endpoint', async () => {
    const put = await fetch(`${sandbox.url}/control/book`, { method: 'PUT', headers: { 'x-sandbox-control': sandbox.controlToken }, body: JSON.stringify({ symbol: 'BTCUSDT', ...deepBook }) });
    expect(put.status).toBe(200);
    expect((await put.json()) as Record<string, unknown>).toMatchObject({ BTCUSDT: deepBook, ETHUSDT: { levels: 5, spread: 0.0002 } });
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 1_000_000 });
    await bitgetClient(sandbox.url, creds).createOrder(S, 'market', 'buy', 10);
    expect(sandbox.control.account(creds.uid).positions[0]).toMatchObject({ size: 10, entryPrice: 60000 });
    const bad = await fetch(`${sandbox.url}/control/book`, { method: 'PUT', headers: { 'x-sandbox-control': sandbox.controlToken }, body: JSON.stringify({ levels: 0 }) });
    expect(bad.status).toBe(400);
    expect(() => sandbox.control.setBook({ spread: -1 })).toThrow(/spread/);
    await expect(bybitClient(sandbox.url, sandbox.control.createAccount({ exchange: 'bybit' })).fetchTicker('ETH/USDT:USDT')).resolves.toMatchObject({ bid: 2999.7, ask: 3000.3 });
  });
});
