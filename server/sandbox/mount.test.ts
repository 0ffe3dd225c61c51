import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../tests/helpers/test-app';
import { CONTROL_TOKEN_HEADER, deepBook, sandboxPlugin, sharedSandboxControl } from './index';
import { orderFrame, RawTradeSocket } from './bybit-ws/test-client';
import { bitgetClient, bitgetRaw, bybitClient } from './test-support';

let app: FastifyInstance;
let base: string;
const controlToken = 'mount-test-control-token';

beforeAll(async () => {
  app = Fastify();
  app.post('/api/echo', async (request) => ({ parsed: typeof request.body, body: request.body }));
  await app.register(sandboxPlugin, { prefix: '/sandbox', controlToken });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/sandbox`;
  sharedSandboxControl().stopRandomWalk();
  sharedSandboxControl().setBook(deepBook);
});
afterAll(async () => app.close());

describe('the sandbox mounted as a Fastify plugin under /sandbox', () => {
  it('serves both exchanges to ccxt; Bitget signatures use the path without the mount prefix', async () => {
    const control = sharedSandboxControl();
    control.setPrice('ETHUSDT', 3000);
    const bybit = control.createAccount({ exchange: 'bybit', balance: 500 });
    const bitget = control.createAccount({ exchange: 'bitget', balance: 700 });
    expect((await bybitClient(base, bybit).fetchBalance()).USDT?.total).toBe(500);
    const bg = bitgetClient(base, bitget);
    expect((await bg.fetchBalance()).USDT?.total).toBe(700);
    await bg.createOrder('ETH/USDT:USDT', 'market', 'buy', 0.1, undefined, { clientOrderId: 'mounted-1' });
    expect((await bg.fetchOrder(undefined as unknown as string, 'ETH/USDT:USDT', { clientOrderId: 'mounted-1' })).average).toBe(3000);
    const params = { productType: 'USDT-FUTURES' };
    const signedWithPrefix = await bitgetRaw(base, bitget, 'GET', '/api/v2/mix/account/accounts', params, { signPath: '/sandbox/api/v2/mix/account/accounts' });
    expect(signedWithPrefix.json()).toMatchObject({ code: '40009' });
  });

  it('serves Bybit order entry at {base}/v5/trade on the parent app server', async () => {
    const bybit = sharedSandboxControl().createAccount({ exchange: 'bybit', balance: 500 });
    const socket = await RawTradeSocket.open(`${base.replace(/^http/, 'ws')}/v5/trade`);
    try {
      expect(await socket.auth(bybit)).toMatchObject({ retCode: 0, op: 'auth' });
      const order = { category: 'linear', symbol: 'ETHUSDT', side: 'Buy', orderType: 'Market', qty: '0.01', orderLinkId: 'mounted-ws-1' };
      expect(await socket.ask(orderFrame('order.create', order, 'm1'))).toMatchObject({ reqId: 'm1', retCode: 0, data: { orderLinkId: 'mounted-ws-1' } });
      expect(sharedSandboxControl().account(bybit.uid).orders.map((o) => o.clientOrderId)).toEqual(['mounted-ws-1']);
    } finally {
      socket.close();
    }
  });

  it('leaves the parent app JSON parsing alone and keeps the control endpoint under the prefix', async () => {
    const echo = await fetch(`${base.replace('/sandbox', '')}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await echo.json()).toEqual({ parsed: 'object', body: { a: 1 } });
    const state = (await (await fetch(`${base}/control/state`, { headers: { [CONTROL_TOKEN_HEADER]: controlToken } })).json()) as { accounts: unknown[] };
    expect(state.accounts.length).toBeGreaterThanOrEqual(2);
    const unknown = await fetch(`${base}/nothing-here`);
    expect(unknown.status).toBe(404);
  });
});

describe('the sandbox inside the platform app', () => {
  let ctx: TestContext;
  let appBase: string;

  beforeAll(async () => {
    ctx = await createTestContext({
      app: {
        extraPlugins: [
          async (app) => {
            await app.register(sandboxPlugin, { prefix: '/sandbox', controlToken });
          },
        ],
      },
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    appBase = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}/sandbox`;
  });
  afterAll(async () => ctx.close());

  describe('(EXCHANGE_MODE=sandbox)', () => {
    it('answers ccxt under /sandbox next to the API, whose JSON envelope is unchanged', async () => {
      const control = sharedSandboxControl();
      const bybit = control.createAccount({ exchange: 'bybit', balance: 1234 });
      const bitget = control.createAccount({ exchange: 'bitget', balance: 4321 });
      expect((await bybitClient(appBase, bybit).fetchBalance()).USDT?.total).toBe(1234);
      expect((await bitgetClient(appBase, bitget).fetchBalance()).USDT?.total).toBe(4321);
      const login = await ctx.api('POST', '/api/security/login', { payload: '{not json', headers: { 'content-type': 'application/json' } });
      expect(login.status).toBe(400);
      expect(login.body.successful).toBe(false);
    });

    it('serves the consent page under the strict CSP (a plain form, no script)', async () => {
      const page = await fetch(`${appBase}/en/oauth?client_id=sandbox-bybit-client&response_type=code&redirect_uri=${encodeURIComponent('http://127.0.0.1:1/cb')}&scope=openapi&state=x`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
      const html = await page.text();
      expect(html).toContain('<form method="post" action="">');
      expect(html).not.toContain('<script');
    });
  });
});
