import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index';
import { startExactSandbox } from '../../sandbox/test-support';
import { adapterHarness, routes, sandboxAccount, type AdapterHarness } from './test-support';
import type { Credentials, ExchangeId } from './types';

let sandbox: RunningSandbox;
let h: AdapterHarness;

beforeAll(async () => {
  sandbox = await startExactSandbox({ randomWalk: false });
  sandbox.control.setPrice('BTCUSDT', 60_000);
  h = adapterHarness(sandbox);
});
afterAll(async () => sandbox?.close());

/** Requests the sandbox counted for the account while `work` ran, and their routes as our recorder saw them. */
async function cost(uid: string, work: () => Promise<unknown>): Promise<{ counted: number; routes: string[]; result: unknown }> {
  const before = sandbox.control.counters().requestsByAccount[uid] ?? 0;
  const sent = h.recorder.since();
  const result = await work();
  return { counted: (sandbox.control.counters().requestsByAccount[uid] ?? 0) - before, routes: routes(sent()), result };
}

const expected = {
  bybit: {
    entry: ['GET /v5/order/realtime'],
    tpOpen: ['GET /v5/order/realtime'],
    tpFilled: ['GET /v5/order/realtime'],
    trailing: [],
    unknown: ['GET /v5/order/realtime', 'GET /v5/order/history'],
    cancelTp: ['POST /v5/order/cancel'],
  },
  bitget: {
    entry: ['GET /api/v2/mix/order/detail'],
    tpOpen: ['GET /api/v2/mix/order/orders-plan-pending'],
    tpFilled: ['GET /api/v2/mix/order/orders-plan-pending', 'GET /api/v2/mix/order/orders-plan-history'],
    trailing: ['GET /api/v2/mix/order/orders-plan-pending'],
    unknown: ['GET /api/v2/mix/order/detail'],
    cancelTp: ['POST /api/v2/mix/order/cancel-plan-order'],
  },
} satisfies Record<ExchangeId, Record<string, string[]>>;

describe.each(['bybit', 'bitget'] as const)('%s: an order looked up by client id costs at most two reads (LIVE-FIDELITY B9)', (exchange) => {
  let creds: Credentials & { uid: string };
  const adapter = () => h.adapters[exchange];

  beforeAll(async () => {
    sandbox.control.setPrice('BTCUSDT', 60_000);
    creds = sandboxAccount(sandbox, exchange);
    await adapter().placeEntry(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId: 'ct50-1-e', positionMode: 'oneway' });
    await adapter().placeTakeProfit(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.003, clientOrderId: 'ct50-1-tp1', positionMode: 'oneway', triggerPrice: 61_000 });
    await adapter().placeTakeProfit(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.003, clientOrderId: 'ct50-1-tp2', positionMode: 'oneway', triggerPrice: 65_000 });
    await adapter().placeTrailingStop(creds, {
      symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId: 'ct50-1-tr', positionMode: 'oneway', activationPrice: 63_000, callback: { type: 'percent', value: 1 },
    });
  });

  it('the entry (a normal order)', async () => {
    const { counted, routes: sent, result } = await cost(creds.uid, () => adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct50-1-e'));
    expect(result).toMatchObject({ clientOrderId: 'ct50-1-e', status: 'closed', filledQty: 0.01 });
    expect(sent).toEqual(expected[exchange].entry);
    expect(counted).toBe(sent.length);
  });

  it('a take-profit leg while it waits, and once it has filled', async () => {
    const open = await cost(creds.uid, () => adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct50-1-tp1'));
    expect(open.result).toMatchObject({ clientOrderId: 'ct50-1-tp1', status: 'open' });
    expect(open.routes).toEqual(expected[exchange].tpOpen);
    sandbox.control.setPrice('BTCUSDT', 61_100);
    const filled = await cost(creds.uid, () => adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct50-1-tp1'));
    expect(filled.result).toMatchObject({ clientOrderId: 'ct50-1-tp1', status: 'closed' });
    expect(filled.routes).toEqual(expected[exchange].tpFilled);
    expect(filled.counted).toBe(filled.routes.length);
  });

  it('a trailing stop (Bybit: the position holds it, there is no order to read)', async () => {
    const { routes: sent, result, counted } = await cost(creds.uid, () => adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct50-1-tr'));
    if (exchange === 'bitget') expect(result).toMatchObject({ clientOrderId: 'ct50-1-tr', status: 'open' });
    else expect(result).toBeNull();
    expect(sent).toEqual(expected[exchange].trailing);
    expect(counted).toBe(sent.length);
  });

  it('an id the exchange never saw', async () => {
    const { routes: sent, result, counted } = await cost(creds.uid, () => adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct404-1-e'));
    expect(result).toBeNull();
    expect(sent).toEqual(expected[exchange].unknown);
    expect(counted).toBe(sent.length);
    const plan = await cost(creds.uid, () => adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct404-1-tp3'));
    expect(plan.result).toBeNull();
    expect(plan.counted).toBeLessThanOrEqual(2);
  });

  it('cancelling a take-profit leg is one request, and then it reads as cancelled', async () => {
    const { routes: sent } = await cost(creds.uid, () => adapter().cancelOrder(creds, 'BTCUSDT', 'ct50-1-tp2'));
    expect(sent).toEqual(expected[exchange].cancelTp);
    expect(await adapter().fetchOrderByClientId(creds, 'BTCUSDT', 'ct50-1-tp2')).toMatchObject({ status: 'canceled' });
  });
});
