import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './index';
import { bitgetClient, bitgetRaw, bybitClient, bybitRaw } from './test-support';

const S = 'BTC/USDT:USDT';
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false });
});
afterAll(async () => sandbox.close());
beforeEach(() => sandbox.control.reset());

/** Asserts the ccxt error class and that the exchange code is in its message. */
async function refused(call: Promise<unknown>, errorClass: new (...args: never[]) => Error, code: string): Promise<void> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(errorClass);
  expect((error as Error).message).toContain(code);
}

describe('bybit error codes and the ccxt classes they raise', () => {
  it('authentication: bad key 10003, stale timestamp 10002, unmatched IP 10010, missing permission 10005', async () => {
    const good = sandbox.control.createAccount({ exchange: 'bybit', balance: 1000 });
    await refused(bybitClient(sandbox.url, { ...good, apiKey: 'unknownkey123' }).fetchBalance(), ccxt.AuthenticationError, '"retCode":10003');
    await refused(bybitClient(sandbox.url, good, { options: { timeDifference: 20_000, enableUnifiedAccount: true } }).fetchBalance(), ccxt.InvalidNonce, '"retCode":10002');
    const bound = sandbox.control.createAccount({ exchange: 'bybit', ips: ['10.1.2.3'] });
    await refused(bybitClient(sandbox.url, bound).fetchBalance(), ccxt.PermissionDenied, '"retCode":10010');
    const readOnly = sandbox.control.createAccount({ exchange: 'bybit', balance: 1000, permissions: { trade: false } });
    const reader = bybitClient(sandbox.url, readOnly);
    expect((await reader.fetchBalance()).USDT?.total).toBe(1000);
    await refused(reader.createOrder(S, 'market', 'buy', 0.01), ccxt.PermissionDenied, '"retCode":10005');
  });

  it('a request with one byte changed in the query or the body is refused as a bad signature (10004)', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 1000 });
    const fine = await bybitRaw(sandbox.url, creds, 'GET', '/v5/account/wallet-balance', { accountType: 'UNIFIED' });
    expect(fine.json().retCode).toBe(0);
    const query = await bybitRaw(sandbox.url, creds, 'GET', '/v5/position/list', { category: 'linear', symbol: 'BTCUSDT' }, { tamper: (p) => ({ ...p, query: p.query.replace('BTCUSDT', 'BTCUSDU') }) });
    expect(query.json()).toMatchObject({ retCode: 10004 });
    const body = { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.01' };
    const tampered = await bybitRaw(sandbox.url, creds, 'POST', '/v5/order/create', body, { tamper: (p) => ({ ...p, body: p.body.replace('0.01', '0.02') }) });
    expect(tampered.json()).toMatchObject({ retCode: 10004 });
    expect(sandbox.control.account(creds.uid).orders).toEqual([]);
  });

  it('trading refusals: 110007 balance, 110094 min notional, 10001 min qty, 110072 duplicate, 110017 reduce-only, 110001 not found', async () => {
    const poor = sandbox.control.createAccount({ exchange: 'bybit', balance: 10 });
    await refused(bybitClient(sandbox.url, poor).createOrder(S, 'market', 'buy', 0.01), ccxt.InsufficientFunds, '"retCode":110007');
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const ex = bybitClient(sandbox.url, creds, { exceptions: {} });
    await refused(ex.createOrder('DOGE/USDT:USDT', 'market', 'buy', 1), ccxt.InvalidOrder, '"retCode":110094');
    const tiny = await bybitRaw(sandbox.url, creds, 'POST', '/v5/order/create', { category: 'linear', symbol: 'ETHUSDT', side: 'Buy', orderType: 'Market', qty: '0.001' });
    expect(tiny.json()).toMatchObject({ retCode: 10001 });
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'same-id' });
    await refused(ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'same-id' }), ccxt.InvalidOrder, '"retCode":110072');
    await refused(bybitClient(sandbox.url, creds).createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'same-id' }), ccxt.DuplicateOrderId, '110072');
    await refused(ex.createOrder('ETH/USDT:USDT', 'market', 'sell', 1, undefined, { reduceOnly: true }), ccxt.InvalidOrder, '"retCode":110017');
    await refused(ex.cancelOrder('no-such-order', S), ccxt.OrderNotFound, '"retCode":110001');
  });
});

describe('bitget error codes and the ccxt classes they raise', () => {
  it('authentication: 40037 unknown key, 40012 passphrase, 40008 timestamp, 40018 IP, 40014 permission', async () => {
    const good = sandbox.control.createAccount({ exchange: 'bitget', balance: 1000 });
    await refused(bitgetClient(sandbox.url, { ...good, apiKey: 'bg_unknown' }).fetchBalance(), ccxt.AuthenticationError, '"code":"40037"');
    await refused(bitgetClient(sandbox.url, { ...good, passphrase: 'wrong-passphrase' }).fetchBalance(), ccxt.AuthenticationError, '"code":"40012"');
    const stale = await bitgetRaw(sandbox.url, good, 'GET', '/api/v2/mix/account/accounts', { productType: 'USDT-FUTURES' }, { timestamp: Date.now() - 60_000 });
    expect(stale.json()).toMatchObject({ code: '40008' });
    await refused(bitgetClient(sandbox.url, good, { options: { defaultType: 'swap', uta: false, timeDifference: 60_000 } }).fetchBalance(), ccxt.InvalidNonce, '"code":"40008"');
    const bound = sandbox.control.createAccount({ exchange: 'bitget', ips: ['10.1.2.3'] });
    await refused(bitgetClient(sandbox.url, bound).fetchBalance(), ccxt.PermissionDenied, '"code":"40018"');
    const readOnly = sandbox.control.createAccount({ exchange: 'bitget', balance: 1000, permissions: { trade: false } });
    await refused(bitgetClient(sandbox.url, readOnly).createOrder(S, 'market', 'buy', 0.01), ccxt.PermissionDenied, '"code":"40014"');
  });

  it('a request with one byte changed in the query or the body is refused as a bad signature (40009)', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 1000 });
    const fine = await bitgetRaw(sandbox.url, creds, 'GET', '/api/v2/mix/account/accounts', { productType: 'USDT-FUTURES' });
    expect(fine.json().code).toBe('00000');
    const query = await bitgetRaw(sandbox.url, creds, 'GET', '/api/v2/mix/account/accounts', { productType: 'USDT-FUTURES' }, { tamper: (p) => ({ ...p, query: p.query.replace('USDT', 'USDC') }) });
    expect(query.status).toBe(400);
    expect(query.json()).toMatchObject({ code: '40009', msg: 'sign signature error' });
    const body = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginMode: 'crossed', marginCoin: 'USDT', size: '0.01', side: 'buy', orderType: 'market' };
    const tampered = await bitgetRaw(sandbox.url, creds, 'POST', '/api/v2/mix/order/place-order', body, { tamper: (p) => ({ ...p, body: `${p.body} ` }) });
    expect(tampered.json()).toMatchObject({ code: '40009' });
    expect(sandbox.control.account(creds.uid).orders).toEqual([]);
  });

  it('trading refusals: 43012 balance, 45110 min notional, 45111 min size, 45034 duplicate, 22002 no position, 40109 not found', async () => {
    const poor = sandbox.control.createAccount({ exchange: 'bitget', balance: 10 });
    await refused(bitgetClient(sandbox.url, poor).createOrder(S, 'market', 'buy', 0.01), ccxt.InsufficientFunds, '"code":"43012"');
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const ex = bitgetClient(sandbox.url, creds, { exceptions: {} });
    await refused(ex.createOrder('XRP/USDT:USDT', 'market', 'buy', 1), ccxt.InvalidOrder, '"code":"45110"');
    const tiny = await bitgetRaw(sandbox.url, creds, 'POST', '/api/v2/mix/order/place-order', { symbol: 'SOLUSDT', productType: 'USDT-FUTURES', marginMode: 'crossed', marginCoin: 'USDT', size: '0.05', side: 'buy', orderType: 'market' });
    expect(tiny.json()).toMatchObject({ code: '45111' });
    await ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'same-id' });
    await refused(ex.createOrder(S, 'market', 'buy', 0.01, undefined, { clientOrderId: 'same-id' }), ccxt.ExchangeError, '"code":"45034","msg":"clientOid duplicate"');
    await refused(ex.createOrder('ETH/USDT:USDT', 'market', 'sell', 1, undefined, { reduceOnly: true }), ccxt.ExchangeError, '"code":"22002"');
    await refused(ex.fetchOrder('123', S), ccxt.OrderNotFound, '"code":"40109"');
  });
});
