import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index';
import { startExactSandbox } from '../../sandbox/test-support';
import { adapterHarness, bodyOf, routes, sandboxAccount, type AdapterHarness } from './test-support';

let sandbox: RunningSandbox;
let harness: AdapterHarness;

beforeAll(async () => {
  sandbox = await startExactSandbox({ randomWalk: false });
  sandbox.control.setPrice('BTCUSDT', 60_000);
  harness = adapterHarness(sandbox);
});
afterAll(async () => sandbox?.close());

const open = ['new', 'untriggered', 'partially_filled'];

describe("one execution's protective orders (the engine's own legs)", () => {
  it('Bybit: the stop and take-profit an entry carries are sized to its fill (tpslMode Partial), found by level, read and cancelled by id', async () => {
    const adapter = harness.adapters.bybit;
    const creds = sandboxAccount(sandbox, 'bybit');
    const entryRequests = harness.recorder.since();
    await adapter.placeEntry(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId: 'ct9-1-e', positionMode: 'oneway', stopLossPrice: 59_400, takeProfitPrice: 60_600 });
    expect(bodyOf(entryRequests().find((r) => r.path === '/v5/order/create'))).toMatchObject({ stopLoss: '59400', takeProfit: '60600', tpslMode: 'Partial', slOrderType: 'Market', tpOrderType: 'Market' });
    expect(adapter.sizedEntryProtection).toBe(true);

    const attached = await adapter.findAttachedLegs(creds, { symbol: 'BTCUSDT', side: 'long', positionMode: 'oneway' });
    expect(attached.map((leg) => [leg.kind, leg.triggerPrice, leg.quantity, leg.sized]).sort()).toEqual([
      ['stopLoss', 59_400, 0.01, true],
      ['takeProfit', 60_600, 0.01, true],
    ]);
    const stop = attached.find((leg) => leg.kind === 'stopLoss')!;
    expect(await adapter.fetchOrderById(creds, 'BTCUSDT', stop.exchangeOrderId)).toMatchObject({ exchangeOrderId: stop.exchangeOrderId, status: 'open', filledQty: 0 });
    await adapter.cancelAttachedLeg(creds, 'BTCUSDT', stop);
    await adapter.cancelAttachedLeg(creds, 'BTCUSDT', stop);
    expect(sandbox.control.account(creds.uid).orders.filter((o) => o.labels.tpsl === 'sl' && open.includes(o.status))).toEqual([]);

    // The execution's own stop: a conditional reduce-only order of its size, falling to its trigger, with its client id.
    const stopRequests = harness.recorder.since();
    expect(await adapter.placeStopLoss(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.004, clientOrderId: 'ct9-1-sl', positionMode: 'oneway', triggerPrice: 59_000 })).toMatchObject({ clientOrderId: 'ct9-1-sl', status: 'open' });
    expect(routes(stopRequests())).toEqual(['POST /v5/order/create']);
    expect(bodyOf(stopRequests()[0])).toMatchObject({ orderLinkId: 'ct9-1-sl', qty: '0.004', triggerPrice: '59000', triggerDirection: 2, reduceOnly: true });
    sandbox.control.setPrice('BTCUSDT', 58_990);
    expect(sandbox.control.account(creds.uid).positions.find((p) => p.size > 0)?.size).toBe(0.006);
    expect(await adapter.fetchOrderByClientId(creds, 'BTCUSDT', 'ct9-1-sl')).toMatchObject({ status: 'closed', filledQty: 0.004 });
    sandbox.control.setPrice('BTCUSDT', 60_000);
  });

  it("Bitget: an entry's preset stop covers the whole position (pos_loss); the execution's own stop is a sized loss_plan, looked up and cancelled by its client id", async () => {
    const adapter = harness.adapters.bitget;
    const creds = sandboxAccount(sandbox, 'bitget');
    await adapter.placeEntry(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId: 'ct9-2-e', positionMode: 'oneway', stopLossPrice: 59_400, takeProfitPrice: 60_600 });
    expect(adapter.sizedEntryProtection).toBe(false);
    const attached = await adapter.findAttachedLegs(creds, { symbol: 'BTCUSDT', side: 'long', positionMode: 'oneway' });
    expect(attached.map((leg) => [leg.kind, leg.triggerPrice, leg.quantity, leg.sized, leg.planType])).toEqual([['stopLoss', 59_400, 0, false, 'pos_loss']]);

    const stopRequests = harness.recorder.since();
    await adapter.placeStopLoss(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.004, clientOrderId: 'ct9-2-sl', positionMode: 'oneway', triggerPrice: 59_000 });
    expect(bodyOf(stopRequests().find((r) => r.path === '/api/v2/mix/order/place-tpsl-order'))).toMatchObject({ planType: 'loss_plan', size: '0.004', triggerPrice: '59000', clientOid: 'ct9-2-sl' });
    expect(await adapter.fetchOrderByClientId(creds, 'BTCUSDT', 'ct9-2-sl')).toMatchObject({ clientOrderId: 'ct9-2-sl', status: 'open' });
    await adapter.cancelAttachedLeg(creds, 'BTCUSDT', attached[0]!);
    await adapter.cancelOrder(creds, 'BTCUSDT', 'ct9-2-sl');
    expect(sandbox.control.account(creds.uid).orders.filter((o) => o.labels.tpsl === 'sl' && open.includes(o.status))).toEqual([]);
    expect(await adapter.findAttachedLegs(creds, { symbol: 'BTCUSDT', side: 'long', positionMode: 'oneway' }, true)).toMatchObject([{ exchangeOrderId: attached[0]!.exchangeOrderId }]);
  });
});
