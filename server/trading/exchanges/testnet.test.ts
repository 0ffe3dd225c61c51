import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from '../../../tests/helpers/fetch-guard';
import { loadConfig } from '../../config';
import type { RunningSandbox } from '../../sandbox/index';
import { startExactSandbox } from '../../sandbox/test-support';
import type { FetchImplementation } from './ccxt-client';
import { baseUrlOf, createExchangeAdapters, type ExchangeAccessMode } from './index';
import { ExchangeRateLimiter } from './rate-limiter';
import { recordingFetch, type RecordedExchange } from './recording-fetch';
import { sandboxAccount } from './test-support';
import type { ExchangeId } from './types';

/**
 * EXCHANGE_MODE=testnet goes through ccxt's own sandbox switch. Offline: each request ccxt builds is
 * recorded as it would leave (URL and headers), then answered by the local sandbox in its place.
 */
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startExactSandbox({ randomWalk: false });
  sandbox.control.setPrice('BTCUSDT', 60_000);
});
afterAll(async () => sandbox?.close());

/** Sends what ccxt meant for a real host to the sandbox instead (path and query unchanged, so signatures hold). */
const toSandbox: FetchImplementation = (url, init) => {
  const target = new URL(url);
  return guardedFetch(`${sandbox.url}${target.pathname}${target.search}`, init);
};

async function requestsOf(mode: ExchangeAccessMode, exchange: ExchangeId): Promise<RecordedExchange[]> {
  const recorder = recordingFetch(mode === 'sandbox' ? guardedFetch : toSandbox);
  const adapter = createExchangeAdapters({ mode, sandboxUrl: sandbox.url, fetchImplementation: recorder.fetch, limiter: new ExchangeRateLimiter() })[exchange];
  const creds = sandboxAccount(sandbox, exchange);
  await adapter.fetchBalance(creds);
  await adapter.placeEntry(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId: `ct1-${creds.uid}-e`, positionMode: 'oneway' });
  return recorder.requests;
}

const origins = (requests: RecordedExchange[]) => [...new Set(requests.map((r) => new URL(r.url).origin))];

describe('EXCHANGE_MODE=testnet: Bybit testnet and Bitget demo trading through ccxt 4.5.84', () => {
  it('Bybit testnet: every request goes to api-testnet.bybit.com, signed as on the live host', async () => {
    const requests = await requestsOf('testnet', 'bybit');
    expect(origins(requests)).toEqual(['https://api-testnet.bybit.com']);
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'GET /v5/market/instruments-info',
      'GET /v5/market/instruments-info',
      'GET /v5/account/wallet-balance',
      'POST /v5/order/create',
    ]);
    const create = requests.at(-1)!;
    expect(create.headers).toMatchObject({ 'x-bapi-api-key': expect.any(String), 'x-bapi-sign': expect.stringMatching(/^[0-9a-f]{64}$/), referer: 'COPYTRADE' });
    expect(requests.every((r) => r.headers.paptrading === undefined)).toBe(true);
    expect(baseUrlOf('bybit', { mode: 'testnet' })).toBe('https://api-testnet.bybit.com');
  });

  it('Bitget demo trading: the live host with the PAPTRADING: 1 header on every request, the same USDT-FUTURES symbols', async () => {
    const requests = await requestsOf('testnet', 'bitget');
    expect(origins(requests)).toEqual(['https://api.bitget.com']);
    const markets = requests.slice(0, 6).map((r) => [new URL(r.url).pathname, new URL(r.url).searchParams.get('productType'), r.headers.paptrading]);
    // ccxt leaves the header off the old simulated product types (S*-FUTURES): they are demo by name.
    expect(markets.sort()).toEqual([
      ['/api/v2/mix/market/contracts', 'COIN-FUTURES', '1'],
      ['/api/v2/mix/market/contracts', 'SCOIN-FUTURES', undefined],
      ['/api/v2/mix/market/contracts', 'SUSDC-FUTURES', undefined],
      ['/api/v2/mix/market/contracts', 'SUSDT-FUTURES', undefined],
      ['/api/v2/mix/market/contracts', 'USDC-FUTURES', '1'],
      ['/api/v2/mix/market/contracts', 'USDT-FUTURES', '1'],
    ]);
    expect(requests.slice(6).map((r) => [`${r.method} ${new URL(r.url).pathname}`, r.headers.paptrading])).toEqual([
      ['GET /api/v2/mix/account/accounts', '1'],
      ['GET /api/v2/mix/account/account', '1'],
      ['POST /api/v2/mix/order/place-order', '1'],
    ]);
    const placed = requests.at(-1)!;
    expect(placed.headers).toMatchObject({ 'access-key': expect.any(String), 'access-passphrase': expect.any(String), 'x-channel-api-code': 'COPYTRADE' });
    expect(JSON.parse(placed.body!)).toMatchObject({ symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginMode: 'crossed' });
    expect(baseUrlOf('bitget', { mode: 'testnet' })).toBe('https://api.bitget.com');
  });

  it.each(['bybit', 'bitget'] as const)('%s live mode: the live host, no demo header', async (exchange) => {
    const requests = await requestsOf('live', exchange);
    expect(origins(requests)).toEqual([exchange === 'bybit' ? 'https://api.bybit.com' : 'https://api.bitget.com']);
    expect(requests.every((r) => r.headers.paptrading === undefined)).toBe(true);
  });

  it('sandbox mode: the sandbox, no demo header', async () => {
    const requests = await requestsOf('sandbox', 'bitget');
    expect(origins(requests)).toEqual([sandbox.url]);
    expect(requests.every((r) => r.headers.paptrading === undefined)).toBe(true);
  });

  it('EXCHANGE_MODE accepts sandbox, testnet and live, and nothing else', () => {
    expect(loadConfig({ EXCHANGE_MODE: 'testnet' }).exchangeMode).toBe('testnet');
    expect(loadConfig({}).exchangeMode).toBe('sandbox');
    expect(() => loadConfig({ EXCHANGE_MODE: 'demo' })).toThrow("EXCHANGE_MODE must be 'sandbox', 'testnet' or 'live', got 'demo'");
  });
});
