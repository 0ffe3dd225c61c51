import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './index';
import { bitgetClient, bybitClient } from './test-support';

let sandbox: RunningSandbox;
let callback: Server;
let callbackUrl: string;
const received: URLSearchParams[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false });
  callback = createServer((request, response) => {
    received.push(new URL(request.url ?? '/', 'http://127.0.0.1').searchParams);
    response.end('connected');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  await new Promise((resolve) => callback.close(resolve));
  await sandbox.close();
});

/** Opens the consent page, checks it is a plain form, clicks `decision` and follows the redirect. */
async function authorize(pagePath: string, query: Record<string, string>, decision: 'allow' | 'deny'): Promise<URLSearchParams> {
  const pageUrl = `${sandbox.url}${pagePath}?${new URLSearchParams(query).toString()}`;
  const page = await fetch(pageUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  const html = await page.text();
  expect(html).toContain('<form method="post" action="">');
  expect(html).not.toContain('<script');
  expect(html).toContain('value="allow">Authorize</button>');
  const fields = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1] ?? '', m[2] ?? '']);
  const form = new URLSearchParams([...fields, ['decision', decision]]);
  const posted = await fetch(pageUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(), redirect: 'manual' });
  expect(posted.status).toBe(302);
  const location = posted.headers.get('location') ?? '';
  expect(location.startsWith(callbackUrl)).toBe(true);
  const followed = await fetch(location);
  expect(await followed.text()).toBe('connected');
  const params = received.at(-1);
  if (!params) throw new Error('the callback was not reached');
  return params;
}

function form(values: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(values).toString() };
}

describe('quick-connect OAuth flows', () => {
  it('Bybit: consent page, redirect with code and state, token, key bound to the caller with read+trade and no withdrawal', async () => {
    const query = { client_id: 'sandbox-bybit-client', response_type: 'code', redirect_uri: callbackUrl, scope: 'openapi', state: 'st-123' };
    const params = await authorize('/en/oauth', query, 'allow');
    expect(params.get('state')).toBe('st-123');
    const code = params.get('code') ?? '';
    expect(code.length).toBeGreaterThan(20);

    const tokenAnswer = await fetch(`${sandbox.url}/oauth/v1/public/access_token`, form({ client_id: 'sandbox-bybit-client', client_secret: 'sandbox-bybit-secret', code }));
    const token = (await tokenAnswer.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(token).toMatchObject({ token_type: 'bearer', expires_in: 86400 });
    const reused = await fetch(`${sandbox.url}/oauth/v1/public/access_token`, form({ client_id: 'sandbox-bybit-client', client_secret: 'sandbox-bybit-secret', code }));
    expect(reused.status).toBe(400);
    expect(await reused.json()).toEqual({ ret_code: 10001, ret_msg: 'invalid, expired or already used code', result: null });

    const keyAnswer = await fetch(`${sandbox.url}/oauth/v1/resource/restrict/openapi`, { headers: { authorization: `Bearer ${token.access_token}` } });
    const key = (await keyAnswer.json()) as { ret_code: number; result: { api_key: string; api_secret: string } };
    expect(key.ret_code).toBe(0);
    const again = (await (await fetch(`${sandbox.url}/oauth/v1/resource/restrict/openapi`, { headers: { authorization: `Bearer ${token.access_token}` } })).json()) as typeof key;
    expect(again.result.api_key).toBe(key.result.api_key);

    const ex = bybitClient(sandbox.url, { exchange: 'bybit', uid: '', apiKey: key.result.api_key, secret: key.result.api_secret, passphrase: '' });
    expect((await ex.fetchBalance()).USDT?.total).toBe(10_000);
    const info = (await ex.privateGetV5UserQueryApi()) as { result: Record<string, unknown> };
    expect(info.result).toMatchObject({ type: 2, readOnly: 0, ips: ['127.0.0.1'], permissions: expect.objectContaining({ Wallet: [], ContractTrade: ['Order', 'Position'] }) });
    await ex.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01);
    expect((await ex.fetchPositions()).map((p) => p.contracts)).toEqual([0.01]);
  });

  it('Bitget: the same shape under /bitget/oauth, the key endpoint also returns the passphrase', async () => {
    const params = await authorize('/bitget/oauth/authorize', { client_id: 'sandbox-bitget-client', response_type: 'code', redirect_uri: callbackUrl, state: 'bg-1' }, 'allow');
    expect(params.get('state')).toBe('bg-1');
    const tokenAnswer = await fetch(`${sandbox.url}/bitget/oauth/token`, form({ client_id: 'sandbox-bitget-client', client_secret: 'sandbox-bitget-secret', code: params.get('code') ?? '' }));
    const token = (await tokenAnswer.json()) as { code: string; data: { access_token: string } };
    expect(token.code).toBe('00000');
    const keyAnswer = await fetch(`${sandbox.url}/bitget/oauth/api-key`, { headers: { authorization: `Bearer ${token.data.access_token}` } });
    const key = (await keyAnswer.json()) as { data: { apiKey: string; secretKey: string; passphrase: string; uid: string } };
    const ex = bitgetClient(sandbox.url, { exchange: 'bitget', uid: key.data.uid, apiKey: key.data.apiKey, secret: key.data.secretKey, passphrase: key.data.passphrase });
    expect((await ex.fetchBalance()).USDT?.total).toBe(10_000);
    const info = (await ex.privateSpotGetV2SpotAccountInfo()) as { data: Record<string, unknown> };
    expect(info.data).toMatchObject({ ips: '127.0.0.1', authorities: ['coow', 'cpow', 'stow'] });
    const reused = await fetch(`${sandbox.url}/bitget/oauth/token`, form({ client_id: 'sandbox-bitget-client', client_secret: 'sandbox-bitget-secret', code: params.get('code') ?? '' }));
    expect(await reused.json()).toMatchObject({ code: '10001', data: null });
  });

  it('refuses unknown clients, a wrong secret and a missing token; Cancel redirects with access_denied', async () => {
    const bad = await fetch(`${sandbox.url}/en/oauth?client_id=nobody&response_type=code&redirect_uri=${encodeURIComponent(callbackUrl)}&scope=openapi&state=s`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Unknown client_id.');
    const denied = await authorize('/en/oauth', { client_id: 'sandbox-bybit-client', response_type: 'code', redirect_uri: callbackUrl, scope: 'openapi', state: 'd-1' }, 'deny');
    expect([denied.get('error'), denied.get('state'), denied.get('code')]).toEqual(['access_denied', 'd-1', null]);
    const wrongSecret = await fetch(`${sandbox.url}/oauth/v1/public/access_token`, form({ client_id: 'sandbox-bybit-client', client_secret: 'nope', code: 'x' }));
    expect(wrongSecret.status).toBe(401);
    const noToken = await fetch(`${sandbox.url}/oauth/v1/resource/restrict/openapi`);
    expect(noToken.status).toBe(401);
  });
});
