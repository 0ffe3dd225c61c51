import ccxt from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from '../../tests/helpers/fetch-guard';
import { deepBook, startSandbox, type RunningSandbox } from './index';
import { bitgetClient, bybitClient } from './test-support';

let sandbox: RunningSandbox;
const bitgetApiKeys = ['spot', 'mix', 'user', 'p2p', 'broker', 'margin', 'common', 'tax', 'convert', 'copy', 'earn', 'uta'];

/** Waits until the sandbox's account has every one of these subscriptions (what ccxt subscribes, one request each). */
async function subscribed(uid: string, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (sandbox.control.streamSubscriptions(uid).length < count) {
    if (Date.now() > deadline) throw new Error(`subscriptions of ${uid}: ${sandbox.control.streamSubscriptions(uid).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false, book: deepBook });
});
afterAll(async () => sandbox.close());

/** ccxt 4.5.84's own stream clients (js/src/pro/bybit.js, bitget.js) read the sandbox's frames: what they send and parse works here. */
describe('ccxt pro against the private streams', () => {
  it('Bybit: watchOrders, watchMyTrades, watchPositions and watchBalance see a market order fill', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bybit', balance: 10_000 });
    const base = sandbox.url;
    const ws = sandbox.privateStreamUrl;
    const pro = new ccxt.pro.bybit({
      apiKey: creds.apiKey, secret: creds.secret, fetchImplementation: guardedFetch,
      urls: { api: { spot: base, futures: base, v2: base, public: base, private: base, ws: { private: { unified: ws, contract: ws, spot: ws, usdc: ws, trade: sandbox.tradeSocketUrl } } } },
      options: { watchPositions: { fetchPositionsSnapshot: false }, fetchMarkets: { types: ['linear'] }, enableUnifiedAccount: true, enableUnifiedMargin: false, unifiedMarginStatus: 6 },
    });
    try {
      await pro.loadHttpProxyAgent();
      await pro.loadMarkets();
      const [orders, trades, positions, balance] = [pro.watchOrders(), pro.watchMyTrades(), pro.watchPositions(), pro.watchBalance()];
      await subscribed(creds.uid, 4);
      expect(sandbox.control.streamSubscriptions(creds.uid)).toEqual(['execution', 'order', 'position', 'wallet']);
      await bybitClient(base, creds).createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01);
      expect((await orders)[0]).toMatchObject({ symbol: 'BTC/USDT:USDT', status: 'closed', filled: 0.01, average: 60000, side: 'buy', type: 'market' });
      expect((await trades)[0]).toMatchObject({ amount: 0.01, price: 60000, takerOrMaker: 'taker', fee: { currency: 'USDT', cost: 0.33 } });
      expect((await positions)[0]).toMatchObject({ symbol: 'BTC/USDT:USDT', contracts: 0.01, entryPrice: 60000, side: 'long' });
      expect((await balance).USDT).toMatchObject({ total: 9999.67 });
    } finally {
      await pro.close();
    }
  });

  it('Bitget: watchOrders, watchPositions and watchBalance see a market order fill', async () => {
    const creds = sandbox.control.createAccount({ exchange: 'bitget', balance: 10_000 });
    const base = sandbox.url;
    const ws = sandbox.bitgetPrivateUrl;
    const pro = new ccxt.pro.bitget({
      apiKey: creds.apiKey, secret: creds.secret, password: creds.passphrase, fetchImplementation: guardedFetch,
      urls: { api: { ...Object.fromEntries(bitgetApiKeys.map((key) => [key, base])), ws: { public: ws, private: ws, utaPublic: ws, utaPrivate: ws } } },
      options: { defaultType: 'swap', fetchMarkets: { types: ['swap'] }, uta: false, watchPositions: { fetchPositionsSnapshot: false } },
    });
    try {
      await pro.loadHttpProxyAgent();
      await pro.loadMarkets();
      const [orders, positions, balance] = [pro.watchOrders('BTC/USDT:USDT'), pro.watchPositions(), pro.watchBalance({ type: 'swap' })];
      await subscribed(creds.uid, 3);
      await bitgetClient(base, creds).createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01, undefined, { marginMode: 'cross' });
      expect((await orders)[0]).toMatchObject({ symbol: 'BTC/USDT:USDT', status: 'closed', filled: 0.01, average: 60000, fee: { cost: 0.36, currency: 'USDT' } });
      expect((await positions)[0]).toMatchObject({ symbol: 'BTC/USDT:USDT', contracts: 0.01, entryPrice: 60000, side: 'long' });
      expect((await balance).USDT).toMatchObject({ total: 9999.64, free: 9939.64 });
    } finally {
      await pro.close();
    }
  });
});
