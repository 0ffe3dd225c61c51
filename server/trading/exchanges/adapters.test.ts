import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index';
import { startExactSandbox } from '../../sandbox/test-support';
import { guardedFetch } from '../../../tests/helpers/fetch-guard';
import { CcxtClient } from './ccxt-client';
import { createExchangeAdapters } from './index';
import { ExchangeRateLimiter } from './rate-limiter';
import { ExchangeFailure, type Credentials, type ExchangeAdapter, type ExchangeId, type PositionModeName } from './types';

let sandbox: RunningSandbox;
let adapters: Record<ExchangeId, ExchangeAdapter>;

beforeAll(async () => {
  sandbox = await startExactSandbox({ randomWalk: false });
  adapters = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, fetchImplementation: guardedFetch, limiter: new ExchangeRateLimiter(), timeoutMs: 1500 });
});
afterAll(async () => sandbox?.close());

function account(exchange: ExchangeId, input: Omit<Parameters<RunningSandbox['control']['createAccount']>[0], 'exchange'> = {}): Credentials & { uid: string } {
  const created = sandbox.control.createAccount({ exchange, balance: 10_000, ...input });
  return { uid: created.uid, apiKey: created.apiKey, secret: created.secret, passphrase: created.passphrase || undefined };
}

async function failureOf(promise: Promise<unknown>): Promise<ExchangeFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExchangeFailure);
  return error as ExchangeFailure;
}

const fees = { bybit: 0.33, bitget: 0.36 } as const;

describe.each(['bybit', 'bitget'] as const)('%s adapter through ccxt against the sandbox', (exchange) => {
  describe.each(['oneway', 'hedge'] as const)('%s mode', (mode: PositionModeName) => {
    const adapter = () => adapters[exchange];
    let creds: Credentials & { uid: string };
    beforeAll(() => {
      sandbox.control.setPrice('BTCUSDT', 60_000);
      creds = account(exchange, { positionMode: mode });
    });

    it('answers market info from markets loaded once per process', async () => {
      expect(await adapter().market('BTCUSDT')).toEqual({ symbol: 'BTCUSDT', ccxtSymbol: 'BTC/USDT:USDT', minQty: 0.001, qtyStep: 0.001, tickSize: 0.1, minNotional: 5, maxLeverage: 100, maxMarketQty: 119 });
      const before = sandbox.control.counters().requestsByIp;
      await adapter().loadMarkets();
      await adapter().market('ETHUSDT');
      expect(sandbox.control.counters().requestsByIp).toEqual(before);
      await expect(adapter().market('NOPEUSDT')).rejects.toMatchObject({ code: 'invalid_request', retryable: false });
    });

    it('reads the USDT balance and checks the key', async () => {
      expect(await adapter().fetchBalance(creds)).toEqual({ total: 10_000, free: 10_000, used: 0 });
      const check = await adapter().checkKey(creds);
      expect(check).toMatchObject({ valid: true, canTrade: true, canWithdraw: false, ipBound: false, error: undefined });
      if (exchange === 'bybit') expect(check.positionMode).toBe(mode);
    });

    it('sets leverage and position mode, treating "not modified" as success', async () => {
      await adapter().setLeverage(creds, 'BTCUSDT', 7);
      await adapter().setLeverage(creds, 'BTCUSDT', 7);
      await adapter().setPositionMode(creds, 'BTCUSDT', mode);
      await adapter().setPositionMode(creds, 'BTCUSDT', mode);
      await expect(adapter().setLeverage(creds, 'BTCUSDT', 500)).rejects.toMatchObject({ code: 'invalid_request' });
    });

    it('places a market entry with a stop loss once, however often it is retried', async () => {
      const request = { symbol: 'BTCUSDT', side: 'long' as const, quantity: 0.01, clientOrderId: 'ct1-1-e', positionMode: mode, stopLossPrice: 55_000 };
      const requestsBefore = sandbox.control.counters().requestsByAccount[creds.uid] ?? 0;
      const placed = await adapter().placeEntry(creds, request);
      // One request on the hot path: the acknowledgement carries the ids, the fill is read later.
      expect(sandbox.control.counters().requestsByAccount[creds.uid]).toBe(requestsBefore + 1);
      expect(placed).toMatchObject({ clientOrderId: 'ct1-1-e', exchangeOrderId: expect.any(String), status: 'unknown', filledQty: 0 });
      const filled = await adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct1-1-e');
      expect(filled).toMatchObject({ clientOrderId: 'ct1-1-e', exchangeOrderId: placed.exchangeOrderId, status: 'closed', filledQty: 0.01, avgPrice: 60_000, fee: fees[exchange] });
      const again = await adapter().placeEntry(creds, request);
      expect(again).toEqual(filled);
      expect(sandbox.control.account(creds.uid).orders.filter((o) => o.clientOrderId === 'ct1-1-e')).toHaveLength(1);
    });

    it('lists the position on the right side and mode', async () => {
      const [position, ...rest] = await adapter().fetchPositions(creds, ['BTCUSDT']);
      expect(rest).toEqual([]);
      expect(position).toMatchObject({ symbol: 'BTCUSDT', side: 'long', size: 0.01, entryPrice: 60_000, leverage: 7, hedged: mode === 'hedge' });
      expect(await adapter().fetchPositions(creds)).toHaveLength(1);
      expect(sandbox.control.account(creds.uid).positions[0]).toMatchObject({ positionIdx: mode === 'hedge' ? 1 : 0 });
      // The entry's stop: on Bybit sized to the fill (tpslMode Partial), on Bitget the position's pos_loss.
      const stop = sandbox.control.account(creds.uid).orders.find((o) => o.labels.tpsl === 'sl' && o.status === 'untriggered');
      expect(stop).toMatchObject({ triggerPrice: 55_000, qty: exchange === 'bybit' ? 0.01 : 0 });
    });

    it('places a reduce-only take profit that fills when the price reaches it', async () => {
      const tp = await adapter().placeTakeProfit(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.004, clientOrderId: 'ct1-1-tp1', positionMode: mode, triggerPrice: 61_000 });
      expect(tp).toMatchObject({ clientOrderId: 'ct1-1-tp1', status: 'open', filledQty: 0 });
      expect(await adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct1-1-tp1')).toMatchObject({ status: 'open' });
      sandbox.control.setPrice('BTCUSDT', 61_050);
      expect(await adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct1-1-tp1')).toMatchObject({ clientOrderId: 'ct1-1-tp1', status: 'closed' });
      expect((await adapter().fetchPositions(creds, ['BTCUSDT']))[0]).toMatchObject({ side: 'long', size: 0.006 });
    });

    it('moves the stop loss and places a trailing stop', async () => {
      // One tick short of the 60,000 entry: Bitget refuses a stop at the average open price (40833, A1).
      await adapter().setStopLoss(creds, { symbol: 'BTCUSDT', side: 'long', price: 59_999.9, positionMode: mode });
      const state = sandbox.control.account(creds.uid);
      if (exchange === 'bybit') expect(state.positions[0]!.stopLoss).toBe(59_999.9);
      else expect(state.orders.filter((o) => o.labels.planType === 'pos_loss' && o.status === 'untriggered').map((o) => o.triggerPrice)).toEqual([59_999.9]);
      const trailing = await adapter().placeTrailingStop(creds, {
        symbol: 'BTCUSDT', side: 'long', quantity: 0.006, clientOrderId: 'ct1-1-tr', positionMode: mode, activationPrice: 62_000, callback: { type: 'percent', value: 1 },
      });
      expect(trailing).toMatchObject({ clientOrderId: 'ct1-1-tr', status: 'open', filledQty: 0 });
      const after = sandbox.control.account(creds.uid);
      if (exchange === 'bybit') expect(after.positions[0]!.trailing).toMatchObject({ distance: 620, activation: 62_000 });
      else expect(after.orders.find((o) => o.clientOrderId === 'ct1-1-tr')).toMatchObject({ kind: 'trailing', status: 'untriggered' });
    });

    it('cancels by client id, and cancelling what is gone is not an error', async () => {
      await adapter().placeTakeProfit(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.002, clientOrderId: 'ct1-1-tp2', positionMode: mode, triggerPrice: 65_000 });
      await adapter().cancelOrder(creds, 'BTCUSDT', 'ct1-1-tp2');
      expect(await adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct1-1-tp2')).toMatchObject({ status: 'canceled' });
      await adapter().cancelOrder(creds, 'BTCUSDT', 'ct1-1-tp2');
      await adapter().cancelOrder(creds, 'BTCUSDT', 'ct404-1-x');
      expect(await adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct404-1-x')).toBeNull();
    });

    it('closes the whole position reduce-only, and answers null when there is none', async () => {
      const closed = await adapter().closePosition(creds, { symbol: 'BTCUSDT', side: 'long', clientOrderId: 'ct1-1-x', positionMode: mode });
      expect(closed).toMatchObject({ clientOrderId: 'ct1-1-x', status: 'closed', filledQty: 0.006 });
      expect(await adapter().fetchPositions(creds, ['BTCUSDT'])).toEqual([]);
      // A retry of the same close after a crash finds the close it already made.
      expect(await adapter().closePosition(creds, { symbol: 'BTCUSDT', side: 'long', clientOrderId: 'ct1-1-x', positionMode: mode })).toMatchObject({ clientOrderId: 'ct1-1-x', status: 'closed' });
      expect(await adapter().closePosition(creds, { symbol: 'BTCUSDT', side: 'long', clientOrderId: 'ct1-1-x2', positionMode: mode })).toBeNull();
    });

    it('opens and partly closes a short', async () => {
      await adapter().placeEntry(creds, { symbol: 'BTCUSDT', side: 'short', quantity: 0.02, clientOrderId: 'ct2-1-e', positionMode: mode });
      const closed = await adapter().closePosition(creds, { symbol: 'BTCUSDT', side: 'short', quantity: 0.005, clientOrderId: 'ct2-1-x', positionMode: mode });
      expect(closed).toMatchObject({ status: 'closed', filledQty: 0.005 });
      expect(await adapter().fetchPositions(creds, ['BTCUSDT'])).toMatchObject([{ side: 'short', size: 0.015, hedged: mode === 'hedge' }]);
    });
  });
});

const codes = {
  bybit: { unknownKey: '10003', badSign: '10004', ip: '10010', permission: '10005', poor: '110007', small: '110094', noPosition: '110017' },
  bitget: { unknownKey: '40037', badSign: '40009', ip: '40018', permission: '40014', poor: '43012', small: '45110', noPosition: '22002' },
} as const;

describe.each(['bybit', 'bitget'] as const)('%s failures become ExchangeFailure with a message staff can act on', (exchange) => {
  const adapter = () => adapters[exchange];
  const name = exchange === 'bybit' ? 'Bybit' : 'Bitget';
  afterAll(() => sandbox.control.setFaults([]));

  it('an unknown key and a wrong secret are final auth failures', async () => {
    const good = account(exchange);
    const unknown = await failureOf(adapter().fetchBalance({ ...good, apiKey: `${good.apiKey}x` }));
    expect(unknown).toMatchObject({ code: 'auth', retryable: false, exchangeCode: codes[exchange].unknownKey });
    expect(unknown.staffMessage).toMatch(new RegExp(`^${name} rejected the API key \\(${codes[exchange].unknownKey}.*\\): ask the customer to reconnect their exchange$`));
    const badSign = await failureOf(adapter().fetchBalance({ ...good, secret: `${good.secret}x` }));
    expect(badSign).toMatchObject({ code: 'auth', retryable: false, exchangeCode: codes[exchange].badSign });
    const check = await adapter().checkKey({ ...good, secret: `${good.secret}x` });
    expect(check).toMatchObject({ valid: false, canTrade: false, canWithdraw: false, ipBound: false, positionMode: undefined });
    expect(check.error).toContain(codes[exchange].badSign);
  });

  it('a key bound to other IPs is refused as ip_not_allowed', async () => {
    const bound = account(exchange, { ips: ['10.1.2.3'] });
    const failure = await failureOf(adapter().fetchBalance(bound));
    expect(failure).toMatchObject({ code: 'ip_not_allowed', retryable: false, exchangeCode: codes[exchange].ip });
    expect(failure.staffMessage).toContain("refused our server's IP address");
    expect(await adapter().checkKey(bound)).toMatchObject({ valid: false, ipBound: true });
    const ours = account(exchange, { ips: ['127.0.0.1'] });
    expect(await adapter().checkKey(ours)).toMatchObject({ valid: true, ipBound: true });
  });

  it('a read-only key cannot trade, a withdrawing key is reported', async () => {
    const readOnly = account(exchange, { permissions: { trade: false } });
    expect(await adapter().checkKey(readOnly)).toMatchObject({ valid: true, canTrade: false });
    const refused = await failureOf(adapter().placeEntry(readOnly, { symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId: 'ct3-1-e', positionMode: 'oneway' }));
    expect(refused).toMatchObject({ code: 'permission', retryable: false, exchangeCode: codes[exchange].permission });
    const withdrawing = account(exchange, { permissions: { withdraw: true } });
    expect(await adapter().checkKey(withdrawing)).toMatchObject({ valid: true, canTrade: true, canWithdraw: true });
  });

  it('insufficient balance, below minimum and no position are final', async () => {
    sandbox.control.setPrice('BTCUSDT', 60_000);
    const poor = account(exchange, { balance: 10 });
    expect(await failureOf(adapter().placeEntry(poor, { symbol: 'BTCUSDT', side: 'long', quantity: 1, clientOrderId: 'ct4-1-e', positionMode: 'oneway' }))).toMatchObject({
      code: 'insufficient_balance', retryable: false, exchangeCode: codes[exchange].poor,
    });
    expect(await failureOf(adapter().placeEntry(poor, { symbol: 'DOGEUSDT', side: 'long', quantity: 1, clientOrderId: 'ct4-1-e2', positionMode: 'oneway' }))).toMatchObject({
      code: 'below_minimum', retryable: false, exchangeCode: codes[exchange].small,
    });
    const flat = account(exchange);
    expect(await failureOf(adapter().placeTakeProfit(flat, { symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId: 'ct4-1-tp1', positionMode: 'oneway', triggerPrice: 70_000 }))).toMatchObject({
      code: 'no_position', retryable: false,
    });
  });

  it('rate limits, server errors and timeouts are retryable; a retried entry is placed once', async () => {
    const creds = account(exchange);
    const route = exchange === 'bybit' ? '/v5/account/wallet-balance' : '/api/v2/mix/account/accounts';
    sandbox.control.setFaults([{ account: creds.uid, route, rateLimitShare: 1, remaining: 1 }]);
    expect(await failureOf(adapter().fetchBalance(creds))).toMatchObject({ code: 'rate_limit', retryable: true });
    sandbox.control.setFaults([{ account: creds.uid, route, errorShare: 1, errorStatus: 503, remaining: 1 }]);
    expect(await failureOf(adapter().fetchBalance(creds))).toMatchObject({ code: 'server', retryable: true });
    const placeRoute = exchange === 'bybit' ? '/v5/order/create' : '/api/v2/mix/order/place-order';
    sandbox.control.setFaults([{ account: creds.uid, route: placeRoute, timeoutShare: 1, timeoutMs: 3000, remaining: 1 }]);
    const request = { symbol: 'BTCUSDT', side: 'long' as const, quantity: 0.01, clientOrderId: 'ct5-1-e', positionMode: 'oneway' as const };
    expect(await failureOf(adapter().placeEntry(creds, request))).toMatchObject({ code: 'timeout', retryable: true });
    expect(await adapter().placeEntry(creds, request)).toMatchObject({ clientOrderId: 'ct5-1-e', status: 'closed', filledQty: 0.01 });
    expect(sandbox.control.account(creds.uid).orders.filter((o) => o.clientOrderId === 'ct5-1-e')).toHaveLength(1);
  });

  it('an injected exchange error code keeps its code and meaning', async () => {
    const creds = account(exchange);
    const route = exchange === 'bybit' ? '/v5/account/wallet-balance' : '/api/v2/mix/account/accounts';
    sandbox.control.setFaults([{ account: creds.uid, route, reject: { code: codes[exchange].ip, msg: 'Invalid IP' }, remaining: 1 }]);
    expect(await failureOf(adapter().fetchBalance(creds))).toMatchObject({ code: 'ip_not_allowed', exchangeCode: codes[exchange].ip });
  });

  it("calls of many customers at once on the one ccxt instance each sign with their own key; background work's requests say so", async () => {
    const customers = Array.from({ length: 6 }, (_, i) => account(exchange, { balance: 1_000 + i }));
    const requests: Array<{ apiKey: string | undefined; background: boolean | undefined }> = [];
    class RecordingLimiter extends ExchangeRateLimiter {
      override acquire(request: Parameters<ExchangeRateLimiter['acquire']>[0]) {
        requests.push({ apiKey: request.apiKey, background: request.background });
        return super.acquire(request);
      }
    }
    const own = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, fetchImplementation: guardedFetch, limiter: new RecordingLimiter(), timeoutMs: 1500 })[exchange];
    const balances = await Promise.all([...customers, ...customers].map((c, i) => own.fetchBalance(i % 3 === 0 ? { ...c, background: true } : c)));
    expect(balances.map((b) => b.total)).toEqual([...customers, ...customers].map((_, i) => 1_000 + (i % customers.length)));
    const keyed = requests.filter((r) => r.apiKey !== undefined);
    expect(keyed).toHaveLength(12);
    expect(keyed.filter((r) => r.background).map((r) => r.apiKey).sort()).toEqual([0, 3, 6, 9].map((i) => customers[i % 6]!.apiKey).sort());
    // The shared instance itself holds no key.
    const shared = (own as unknown as { client: { ccxt: { apiKey?: string; secret?: string } } }).client.ccxt;
    expect([shared.apiKey, shared.secret].filter(Boolean)).toEqual([]);
  });

  it("every call's view uses the shared instance's transport (kept-alive connections, proxy modules), never one of its own", async () => {
    const client = new CcxtClient({ exchange, baseUrl: sandbox.url, brokerCode: 'test', limiter: new ExchangeRateLimiter(), egress: 'views', fetchImplementation: guardedFetch });
    const creds = account(exchange);
    const own = await Promise.all(
      Array.from({ length: 3 }, () =>
        client.withCredentials(creds, async (ex) => {
          await ex.fetchBalance();
          return ['fetchImplementationLoading', 'fetchDispatcher', 'fetchImplementation', 'proxiesModulesLoading'].filter((key) => Object.hasOwn(ex, key));
        }),
      ),
    );
    expect(own).toEqual([[], [], []]);
    expect(Object.hasOwn(client.ccxt, 'fetchImplementationLoading')).toBe(true);
  });

  it('never leaves 127.0.0.1 in tests', async () => {
    const live = createExchangeAdapters({ mode: 'live', fetchImplementation: guardedFetch, limiter: new ExchangeRateLimiter() })[exchange];
    const failure = await failureOf(live.loadMarkets());
    expect(failure.staffMessage).toContain('BLOCKED outbound request');
  });
});
