import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { guardedFetch } from '../../../../tests/helpers/fetch-guard';
import type { RunningSandbox } from '../../../sandbox/index';
import { bitgetClient, bybitClient, startExactSandbox } from '../../../sandbox/test-support';
import type { BitgetAdapter } from '../bitget';
import type { BybitAdapter } from '../bybit';
import { createExchangeAdapters } from '../index';
import { ExchangeRateLimiter } from '../rate-limiter';
import { recordingFetch, type RecordingFetch } from '../recording-fetch';
import { routes, sandboxAccount } from '../test-support';
import type { AccountNews, Credentials, ExchangeId } from '../types';

let sandbox: RunningSandbox;
let recorder: RecordingFetch;
let adapters: { bybit: BybitAdapter; bitget: BitgetAdapter };
let news: Array<{ apiKey: string; news: AccountNews }>;

const until = async (what: string, ready: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

beforeAll(async () => {
  sandbox = await startExactSandbox({ randomWalk: false });
  sandbox.control.setPrice('BTCUSDT', 60000);
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  recorder = recordingFetch(guardedFetch);
  adapters = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, fetchImplementation: recorder.fetch, limiter: new ExchangeRateLimiter(), timeoutMs: 2_000, bybitOrderEntry: 'rest', tradeSocketBackoff: { minMs: 50, maxMs: 200 } });
  news = [];
  for (const adapter of Object.values(adapters)) adapter.onAccountNews((credentials, item) => news.push({ apiKey: credentials.apiKey, news: item }));
});
afterEach(() => {
  for (const adapter of Object.values(adapters)) adapter.closeSessions();
  sandbox.control.clearStreamFaults();
});

/** A funded account whose private stream is subscribed and caught up. */
async function streamed(exchange: ExchangeId): Promise<Credentials & { uid: string }> {
  const account = sandboxAccount(sandbox, exchange, { balance: 100_000 });
  const adapter = adapters[exchange];
  await adapter.loadMarkets();
  await adapter.warmSessions([account]);
  await until('stream synced', () => adapter.streamStats().synced === 1);
  return account;
}

const entry = (clientOrderId: string) => ({ symbol: 'BTCUSDT', side: 'long' as const, quantity: 0.01, clientOrderId, positionMode: 'oneway' as const });

describe.each(['bybit', 'bitget'] as const)('%s private stream: reads from the pushes, news to the engine', (exchange) => {
  it('an entry\'s fill, its position and its order are read from the stream once caught up: no REST read', async () => {
    const account = await streamed(exchange);
    const adapter = adapters[exchange];
    const placed = await adapter.placeEntry(account, entry('ct1-1-e'));
    const filled = await adapter.settledOrder(account, placed.clientOrderId, 30_000);
    expect(filled).toMatchObject({ clientOrderId: 'ct1-1-e', status: 'closed', filledQty: 0.01, avgPrice: 60000 });
    const before = recorder.requests.length;
    expect(await adapter.fetchOrderByClientId(account, 'BTCUSDT', 'ct1-1-e')).toMatchObject({ status: 'closed', filledQty: 0.01, avgPrice: 60000 });
    expect(await adapter.fetchPositions(account, ['BTCUSDT'])).toMatchObject([{ symbol: 'BTCUSDT', side: 'long', size: 0.01 }]);
    expect(routes(recorder.requests.slice(before))).toEqual([]);
  });

  it('a close by hand on the exchange is news for its symbol, and the position read back is flat', async () => {
    const account = await streamed(exchange);
    await adapters[exchange].placeEntry(account, entry('ct2-1-e'));
    expect(await adapters[exchange].settledOrder(account, 'ct2-1-e', 30_000)).toMatchObject({ status: 'closed' });
    const manual = exchange === 'bybit' ? bybitClient(sandbox.url, { ...account, exchange, passphrase: '' }) : bitgetClient(sandbox.url, { ...account, exchange, passphrase: account.passphrase ?? '' });
    await manual.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01, undefined, exchange === 'bybit' ? { reduceOnly: true } : { reduceOnly: true, marginMode: 'cross' });
    await until('news of BTCUSDT', () => news.some((n) => n.apiKey === account.apiKey && n.news.symbols.includes('BTCUSDT')));
    expect(await adapters[exchange].fetchPositions(account, ['BTCUSDT'])).toEqual([]);
  });

  it('a dropped stream sends reads to REST until it is back and caught up, then says so (resynced)', async () => {
    const account = await streamed(exchange);
    const adapter = adapters[exchange];
    news = [];
    expect(sandbox.control.dropStreams({ account: account.uid })).toBe(1);
    await until('stream lost', () => adapter.streamStats().synced === 0);
    const before = recorder.requests.length;
    await adapter.fetchPositions(account, ['BTCUSDT']);
    expect(routes(recorder.requests.slice(before)).length).toBeGreaterThan(0);
    await until('resynced news', () => news.some((n) => n.apiKey === account.apiKey && n.news.resynced));
    expect(adapter.streamStats().synced).toBe(1);
  });
});
