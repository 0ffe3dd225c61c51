import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index';
import { startExactSandbox } from '../../sandbox/test-support';
import { adapterHarness, failureOf, sandboxAccount, type AdapterHarness } from './test-support';
import type { Credentials, ExchangeId } from './types';

/**
 * The exchanges' own answers the engine relies on (LIVE-FIDELITY A1, B1, B2, B12), given by the
 * sandbox exactly as the exchange words them (fault rules answer the exchange's code and message
 * without applying the request).
 */
let sandbox: RunningSandbox;
let h: AdapterHarness;

beforeAll(async () => {
  sandbox = await startExactSandbox({ randomWalk: false });
  h = adapterHarness(sandbox);
});
afterAll(async () => sandbox?.close());
afterEach(() => sandbox.control.setFaults([]));

async function openLong(exchange: ExchangeId, id: number): Promise<Credentials & { uid: string }> {
  sandbox.control.setPrice('BTCUSDT', 60_000);
  const creds = sandboxAccount(sandbox, exchange);
  await h.adapters[exchange].placeEntry(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId: `ct${id}-1-e`, positionMode: 'oneway', stopLossPrice: 57_000 });
  return creds;
}

const stop = (price: number) => ({ symbol: 'BTCUSDT', side: 'long' as const, price, positionMode: 'oneway' as const });
const reject = (uid: string, route: string, [code, msg]: readonly [string, string]) => sandbox.control.setFaults([{ account: uid, route, reject: { code, msg }, remaining: 1 }]);

describe('Bybit trading-stop "Not modified" (34040) is success (LIVE-FIDELITY B1)', () => {
  it('moving the stop to where it already is, and re-sending a trailing stop, succeed', async () => {
    const creds = await openLong('bybit', 60);
    const bybit = h.adapters.bybit;
    await bybit.setStopLoss(creds, stop(58_000));
    // The same stop again: Bybit answers 34040 "Not modified" (docs/v5/error.mdx).
    await bybit.setStopLoss(creds, stop(58_000));
    reject(creds.uid, '/v5/position/trading-stop', ['34040', 'Not modified']);
    await expect(bybit.setStopLoss(creds, stop(58_000))).resolves.toBeUndefined();
    reject(creds.uid, '/v5/position/trading-stop', ['34040', 'Not modified']);
    const trailing = { symbol: 'BTCUSDT', side: 'long' as const, quantity: 0.01, clientOrderId: 'ct60-1-tr', positionMode: 'oneway' as const, activationPrice: 62_000, callback: { type: 'percent' as const, value: 1 } };
    await expect(bybit.placeTrailingStop(creds, trailing)).resolves.toMatchObject({ clientOrderId: 'ct60-1-tr', status: 'open' });
    expect(sandbox.control.faults()).toEqual([expect.objectContaining({ remaining: 0 })]);
    expect(sandbox.control.account(creds.uid).positions[0]).toMatchObject({ stopLoss: 58_000 });
  });

  it('any other trading-stop refusal still fails', async () => {
    const creds = await openLong('bybit', 61);
    reject(creds.uid, '/v5/position/trading-stop', ['10001', 'params error: side invalid']);
    expect(await failureOf(h.adapters.bybit.setStopLoss(creds, stop(58_000)))).toMatchObject({ code: 'invalid_request', exchangeCode: '10001' });
  });
});

const refusals = {
  bybit: {
    tpRoute: '/v5/order/create',
    crossed: ['110092', 'expect Rising, but trigger_price[59000] <= current[60000]'],
    slRoute: '/v5/position/trading-stop',
    passed: ['10001', 'StopLoss:61000 set for Buy position should lower than base_price:60000??LastPrice'],
    closeRoute: '/v5/order/create',
    flat: ['110017', 'Reduce-only rule not satisfied'],
  },
  bitget: {
    tpRoute: '/api/v2/mix/order/place-tpsl-order',
    crossed: ['40915', 'Long position take profit price please > mark price 60000'],
    // The entry's preset stop is moved (one pos_loss per position).
    slRoute: '/api/v2/mix/order/modify-tpsl-order',
    passed: ['40917', 'Stop price for long positions please < mark price 60000'],
    closeRoute: '/api/v2/mix/order/place-order',
    flat: ['40757', 'Not enough position is available.'],
  },
} as const;

describe.each(['bybit', 'bitget'] as const)('%s: refusals the engine acts on are typed (LIVE-FIDELITY A1, B2, B12)', (exchange) => {
  const adapter = () => h.adapters[exchange];
  const codes = refusals[exchange];

  it('a take-profit whose trigger the market already crossed is trigger_crossed', async () => {
    const creds = await openLong(exchange, 70);
    reject(creds.uid, codes.tpRoute, codes.crossed);
    const failure = await failureOf(adapter().placeTakeProfit(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.005, clientOrderId: 'ct70-1-tp1', positionMode: 'oneway', triggerPrice: 59_000 }));
    expect(failure).toMatchObject({ code: 'trigger_crossed', retryable: false, exchangeCode: codes.crossed[0] });
    expect(failure.staffMessage).toContain('market has already crossed its trigger price');
  });

  it('a stop loss the market has already passed is level_passed', async () => {
    const creds = await openLong(exchange, 71);
    reject(creds.uid, codes.slRoute, codes.passed);
    const failure = await failureOf(adapter().setStopLoss(creds, stop(61_000)));
    expect(failure).toMatchObject({ code: 'level_passed', retryable: false, exchangeCode: codes.passed[0] });
  });

  it('a close racing a take-profit fill finds the position already flat: null, not an error', async () => {
    const creds = await openLong(exchange, 72);
    reject(creds.uid, codes.closeRoute, codes.flat);
    expect(await adapter().closePosition(creds, { symbol: 'BTCUSDT', side: 'long', clientOrderId: 'ct72-1-x', positionMode: 'oneway' })).toBeNull();
  });
});

describe('Bitget duplicate client ids (45034, 43118) make a retried placement idempotent (LIVE-FIDELITY B12)', () => {
  it.each(['45034', '43118'])('%s: the retry answers the order placed before', async (code) => {
    const creds = await openLong('bitget', Number(code));
    const request = { symbol: 'BTCUSDT', side: 'long' as const, quantity: 0.01, clientOrderId: `ct${code}-1-e`, positionMode: 'oneway' as const, stopLossPrice: 57_000 };
    // Worded without "duplicate": the code alone must decide.
    reject(creds.uid, '/api/v2/mix/order/place-order', [code, 'The clientOid already exists']);
    expect(await h.adapters.bitget.placeEntry(creds, request)).toMatchObject({ clientOrderId: `ct${code}-1-e`, status: 'closed', filledQty: 0.01 });
    expect(sandbox.control.account(creds.uid).orders.filter((o) => o.clientOrderId === request.clientOrderId)).toHaveLength(1);
  });
});
