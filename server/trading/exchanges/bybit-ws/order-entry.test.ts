import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { guardedFetch } from '../../../../tests/helpers/fetch-guard';
import { startExactSandbox } from '../../../sandbox/test-support';
import type { RunningSandbox } from '../../../sandbox/index';
import { createExchangeAdapters, type ExchangeAdaptersOptions } from '../index';
import { DEFAULT_CEILINGS, ExchangeRateLimiter } from '../rate-limiter';
import { recordingFetch, type RecordingFetch } from '../recording-fetch';
import { failureOf, routes, sandboxAccount } from '../test-support';
import type { Credentials, EntryRequest, ExchangeAdapter } from '../types';

let sandbox: RunningSandbox;
let recorder: RecordingFetch;
let limiter: ExchangeRateLimiter;
let bybit: ExchangeAdapter;
let account: Credentials & { uid: string };
const adapters: ExchangeAdapter[] = [];

function bybitAdapter(options: Partial<ExchangeAdaptersOptions> = {}): ExchangeAdapter {
  const adapter = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, fetchImplementation: recorder.fetch, limiter, timeoutMs: 1500, tradeSocketBackoff: { minMs: 100, maxMs: 400 }, privateStreams: false, ...options }).bybit;
  adapters.push(adapter);
  return adapter;
}

const entry = (clientOrderId: string, extra: Partial<EntryRequest> = {}): EntryRequest => ({ symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId, positionMode: 'oneway', ...extra });
const creates = () => routes(recorder.requests).filter((r) => r === 'POST /v5/order/create').length;
const orders = () => sandbox.control.account(account.uid).orders;
/** Waits for a condition; the deadline is generous (a loaded machine), the condition ends the wait. */
const until = async (ready: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

beforeAll(async () => {
  sandbox = await startExactSandbox({ randomWalk: false });
});
afterAll(async () => sandbox.close());
beforeEach(async () => {
  sandbox.control.reset();
  recorder = recordingFetch(guardedFetch);
  limiter = new ExchangeRateLimiter();
  account = sandboxAccount(sandbox, 'bybit');
  bybit = bybitAdapter();
  await bybit.loadMarkets();
});
afterEach(() => {
  for (const adapter of adapters.splice(0)) adapter.closeSessions();
});

describe('Bybit order entry over the account /v5/trade session', () => {
  it('warm sessions carry the entry, its stop loss and take profit and a close; REST only reads', async () => {
    expect(await bybit.warmSessions([account])).toMatchObject({ wanted: 1, open: 1, waiting: 0, opened: 1 });
    const placed = await bybit.placeEntry(account, entry('ct1-1-e', { stopLossPrice: 58_000, takeProfitPrice: 63_000 }));
    expect(placed).toMatchObject({ clientOrderId: 'ct1-1-e', exchangeOrderId: expect.any(String), status: 'unknown' });
    const sl = await bybit.placeStopLoss(account, { symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId: 'ct1-1-sl', positionMode: 'oneway', triggerPrice: 57_000 });
    const tp = await bybit.placeTakeProfit(account, { symbol: 'BTCUSDT', side: 'long', quantity: 0.005, clientOrderId: 'ct1-1-tp1', positionMode: 'oneway', triggerPrice: 62_000 });
    expect([sl.status, tp.status]).toEqual(['open', 'open']);
    const closed = await bybit.closePosition(account, { symbol: 'BTCUSDT', side: 'long', clientOrderId: 'ct1-1-c', positionMode: 'oneway', quantity: 0.005 });
    expect(closed).toMatchObject({ clientOrderId: 'ct1-1-c', status: 'closed', filledQty: 0.005, avgPrice: 60_000 });
    expect(creates()).toBe(0);
    expect(orders().map((o) => [o.clientOrderId, o.kind, o.status])).toEqual([
      ['ct1-1-e', 'normal', 'filled'],
      ['', 'tpsl', 'untriggered'],
      ['', 'tpsl', 'untriggered'],
      ['ct1-1-sl', 'conditional', 'untriggered'],
      ['ct1-1-tp1', 'conditional', 'untriggered'],
      ['ct1-1-c', 'normal', 'filled'],
    ]);
    expect(orders()[0]).toMatchObject({ stopLoss: 58_000, takeProfit: 63_000 });
    expect(orders()[3]).toMatchObject({ triggerPrice: 57_000, reduceOnly: true, qty: 0.01 });
    expect(sandbox.control.counters().tradeSockets).toMatchObject({ opened: 1, open: 1 });
  });

  it('cancels go over the session too (by our client id and by the exchange id of an attached leg); one already gone is fine; no session: REST', async () => {
    await bybit.warmSessions([account]);
    await bybit.placeEntry(account, entry('ct2-1-e', { stopLossPrice: 58_000 }));
    await bybit.placeTakeProfit(account, { symbol: 'BTCUSDT', side: 'long', quantity: 0.005, clientOrderId: 'ct2-1-tp1', positionMode: 'oneway', triggerPrice: 62_000 });
    const attached = orders().find((o) => o.clientOrderId === '' && o.kind === 'tpsl')!;
    await bybit.cancelOrder(account, 'BTCUSDT', 'ct2-1-tp1');
    await bybit.cancelAttachedLeg(account, 'BTCUSDT', { exchangeOrderId: attached.id, planType: undefined });
    await bybit.cancelOrder(account, 'BTCUSDT', 'ct2-1-tp1');
    const cancels = () => routes(recorder.requests).filter((r) => r === 'POST /v5/order/cancel').length;
    expect(cancels()).toBe(0);
    expect(orders().filter((o) => o.clientOrderId === 'ct2-1-tp1' || o.id === attached.id).map((o) => o.status)).toEqual(['cancelled', 'cancelled']);

    bybit.closeSessions([account]);
    await bybit.placeTakeProfit(account, { symbol: 'BTCUSDT', side: 'long', quantity: 0.005, clientOrderId: 'ct2-1-tp2', positionMode: 'oneway', triggerPrice: 62_500 });
    await bybit.cancelOrder(account, 'BTCUSDT', 'ct2-1-tp2');
    expect(cancels()).toBe(1);
    expect(orders().find((o) => o.clientOrderId === 'ct2-1-tp2')?.status).toBe('cancelled');
  });

  it('a refusal over the socket is the same failure as over REST (duplicate client id looked up; insufficient balance final; ccxt precision checks before sending)', async () => {
    await bybit.warmSessions([account]);
    const first = await bybit.placeEntry(account, entry('ct2-1-e'));
    // The same client id again: Bybit answers 110072; the adapter answers the order already placed.
    expect(await bybit.placeEntry(account, entry('ct2-1-e'))).toMatchObject({ clientOrderId: 'ct2-1-e', exchangeOrderId: first.exchangeOrderId, status: 'closed' });
    const rest = bybitAdapter({ bybitOrderEntry: 'rest' });
    const overSocket = await failureOf(bybit.placeEntry(account, entry('ct2-2-e', { quantity: 10 })));
    const overRest = await failureOf(rest.placeEntry(account, entry('ct2-3-e', { quantity: 10 })));
    expect([overSocket.code, overSocket.retryable, overSocket.exchangeCode, overSocket.staffMessage]).toEqual([overRest.code, overRest.retryable, '110007', overRest.staffMessage]);
    expect(overSocket.code).toBe('insufficient_balance');
    const tinySocket = await failureOf(bybit.placeEntry(account, entry('ct2-4-e', { quantity: 0.0001 })));
    const tinyRest = await failureOf(rest.placeEntry(account, entry('ct2-5-e', { quantity: 0.0001 })));
    expect([tinySocket.code, tinySocket.staffMessage]).toEqual([tinyRest.code, tinyRest.staffMessage]);
    expect(orders().map((o) => o.clientOrderId)).toEqual(['ct2-1-e']);
    // the failed ones over REST only
    expect(creates()).toBe(1);
  });

  it('a session dropped after the order arrived: the order is found by its client id and placed exactly once', async () => {
    await bybit.warmSessions([account]);
    sandbox.control.setFaults([{ route: '/v5/order/create', method: 'WS', timeoutShare: 1, remaining: 1 }]);
    const placing = bybit.placeEntry(account, entry('ct3-1-e'));
    await until(() => orders().length === 1);
    expect(sandbox.control.dropTradeSockets(account.uid)).toBe(1);
    expect(await placing).toMatchObject({ clientOrderId: 'ct3-1-e', status: 'closed', filledQty: 0.01 });
    expect(orders()).toHaveLength(1);
    expect(creates()).toBe(0);
    expect(routes(recorder.requests)).toEqual(['GET /v5/order/realtime']);
  });

  it('an answer that never comes (timeout): looked up, found, not sent again', async () => {
    await bybit.warmSessions([account]);
    sandbox.control.setFaults([{ route: '/v5/order/create', method: 'WS', timeoutShare: 1, remaining: 1 }]);
    const started = performance.now();
    expect(await bybit.placeEntry(account, entry('ct4-1-e'))).toMatchObject({ clientOrderId: 'ct4-1-e', status: 'closed' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
    expect(orders()).toHaveLength(1);
    expect(creates()).toBe(0);
  });

  it('a session dropped before the order arrived: not found by its client id, placed once over REST with the same id', async () => {
    await bybit.warmSessions([account]);
    // The order is read off the socket, then held on its way for as long as the test needs: it cannot arrive before the drop.
    sandbox.control.setFaults([{ route: '/v5/order/create', method: 'WS', latencyMs: 60_000 }]);
    const requests = () => sandbox.control.counters().requestsByIp['127.0.0.1'] ?? 0;
    const before = requests();
    const placing = bybit.placeEntry(account, entry('ct5-1-e'));
    await until(() => requests() > before);
    expect(sandbox.control.dropTradeSockets(account.uid)).toBe(1);
    sandbox.control.setFaults([]);
    expect(await placing).toMatchObject({ clientOrderId: 'ct5-1-e', status: 'unknown' });
    expect(routes(recorder.requests)).toEqual(['GET /v5/order/realtime', 'GET /v5/order/history', 'POST /v5/order/create']);
    expect(orders().map((o) => o.clientOrderId)).toEqual(['ct5-1-e']);
  });

  it('REST while the session is down; the session is reopened with backoff and carries orders again', async () => {
    await bybit.warmSessions([account]);
    sandbox.control.dropTradeSockets(account.uid);
    await until(() => sandbox.control.counters().tradeSockets.open === 0);
    await bybit.placeEntry(account, entry('ct6-1-e'));
    expect(creates()).toBe(1);
    await until(() => sandbox.control.counters().tradeSockets.open === 1);
    // The sandbox counts the socket when it connects; the client uses it once its auth is answered.
    await until(async () => (await bybit.warmSessions([account])).open === 1);
    await bybit.placeEntry(account, entry('ct6-2-e'));
    expect(creates()).toBe(1);
    // Reopened: at least once more (a loaded machine may see an attempt's auth time out and retry).
    expect(sandbox.control.counters().tradeSockets.opened).toBeGreaterThanOrEqual(2);
    expect(orders().map((o) => o.clientOrderId)).toEqual(['ct6-1-e', 'ct6-2-e']);
  });

  it('an account never warmed, or BYBIT_ORDER_ENTRY=rest: REST', async () => {
    await bybit.placeEntry(account, entry('ct7-1-e'));
    const rest = bybitAdapter({ bybitOrderEntry: 'rest' });
    expect(await rest.warmSessions([account])).toEqual({ wanted: 0, open: 0, waiting: 0, opened: 0, failures: 0 });
    await rest.placeEntry(account, entry('ct7-2-e'));
    expect(creates()).toBe(2);
    expect(sandbox.control.counters().tradeSockets.opened).toBe(0);
  });

  it('10403 (the address over 3000 orders/s) is a rate-limit answer: that order and the next second go over REST, none lost', async () => {
    await bybit.warmSessions([account]);
    sandbox.control.setFaults([{ route: '/v5/order/create', method: 'WS', reject: { code: '10403', msg: 'Too many requests: exceed IP rate limit' }, remaining: 1 }]);
    await bybit.placeEntry(account, entry('ct8-1-e'));
    await bybit.placeEntry(account, entry('ct8-2-e'));
    expect(creates()).toBe(2);
    expect(orders().map((o) => o.clientOrderId)).toEqual(['ct8-1-e', 'ct8-2-e']);
  });

  it('10019 (the trade service restarting, LIVE-FIDELITY D10): that order goes over REST, and the session is opened anew for the next one', async () => {
    await bybit.warmSessions([account]);
    sandbox.control.setFaults([{ route: '/v5/order/create', method: 'WS', reject: { code: '10019', msg: 'service is restarting' }, remaining: 1 }]);
    await bybit.placeEntry(account, entry('ct12-1-e'));
    expect(creates()).toBe(1);
    await until(() => sandbox.control.counters().tradeSockets.opened === 2 && bybit.entryChannel(account) === 'websocket');
    await bybit.placeEntry(account, entry('ct12-2-e'));
    expect(creates()).toBe(1);
    expect(orders().map((o) => o.clientOrderId)).toEqual(['ct12-1-e', 'ct12-2-e']);
  });

  it("a process holding no part of the address's order-entry window sends over REST until it is given one", async () => {
    await bybit.warmSessions([account]);
    expect(bybit.entryChannel(account)).toBe('websocket');
    bybit.orderEntryWindow!.share(0);
    expect(bybit.entryChannel(account)).toBe('rest');
    await bybit.placeEntry(account, entry('ct11-1-e'));
    expect(creates()).toBe(1);
    bybit.orderEntryWindow!.share(0.5);
    expect(bybit.entryChannel(account)).toBe('websocket');
    await bybit.placeEntry(account, entry('ct11-2-e'));
    expect(creates()).toBe(1);
    expect(orders().map((o) => o.clientOrderId)).toEqual(['ct11-1-e', 'ct11-2-e']);
    expect(limiter.stats().perAccountOrders.granted).toBe(2);
  });

  it('the account limit is shared: 25 orders of one account at once, 13 over the socket and 12 over REST, get no 10006', async () => {
    const rest = bybitAdapter({ bybitOrderEntry: 'rest' });
    await bybit.warmSessions([account]);
    const placed = await Promise.allSettled(Array.from({ length: 25 }, (_, i) => (i % 2 === 0 ? bybit : rest).placeEntry(account, entry(`ct9-${i}-e`, { quantity: 0.001 }))));
    expect(placed.filter((p) => p.status === 'rejected')).toEqual([]);
    expect(creates()).toBe(12);
    expect(orders()).toHaveLength(25);
    expect(sandbox.control.counters().rateLimitRejections.total).toBe(0);
    expect(limiter.stats().perAccountOrders).toMatchObject({ accounts: 1, granted: 25 });
    expect(limiter.stats().perAccountOrders.delayed).toBeGreaterThanOrEqual(15);
  }, 20_000);

  it("the address's order-entry window counts an order from the exchange's answer, not from our late reading of it", async () => {
    // One order per 300 ms over the socket (no slack), to see when the window gives the slot again.
    limiter = new ExchangeRateLimiter({ ...DEFAULT_CEILINGS, bybit: { ...DEFAULT_CEILINGS.bybit, perIpOrderEntry: { limit: 1, windowMs: 300 } } }, 0);
    const adapter = bybitAdapter();
    await adapter.loadMarkets();
    await adapter.warmSessions([account]);
    // A first answer read at once tells how the exchange's clock stands against ours.
    await adapter.placeEntry(account, entry('ct10-0-e', { quantity: 0.001 }));
    await new Promise((resolve) => setTimeout(resolve, 350));
    const placing = adapter.placeEntry(account, entry('ct10-1-e', { quantity: 0.001 }));
    // Checked once per turn of the event loop, right after the sandbox (in this process) placed the order
    // and wrote its answer: the loop is then busy for 400 ms before the client reads that answer.
    await new Promise<void>((resolve) => {
      const check = () => {
        if (orders().length < 2) return void setImmediate(check);
        const busyUntil = performance.now() + 400;
        while (performance.now() < busyUntil);
        resolve();
      };
      setImmediate(check);
    });
    await placing;
    await adapter.placeEntry(account, entry('ct10-2-e', { quantity: 0.001 }));
    const [, second, third] = orders().map((o) => o.receivedAt);
    // Counted from the reading, the third would leave 300 ms after the busy loop, 700 ms after the second arrived.
    expect(third! - second!).toBeGreaterThanOrEqual(300);
    expect(third! - second!).toBeLessThan(620);
    expect(creates()).toBe(0);
  });

  it('a key Bybit refuses gets no session (its orders fail over REST with the auth failure)', async () => {
    const wrong = { ...account, secret: 'x'.repeat(36) };
    expect(await bybit.warmSessions([wrong])).toMatchObject({ wanted: 1, open: 0, waiting: 1, failures: 1 });
    expect((await failureOf(bybit.placeEntry(wrong, entry('ct10-1-e')))).code).toBe('auth');
  });
});
