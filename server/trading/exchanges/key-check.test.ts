import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index';
import { startExactSandbox } from '../../sandbox/test-support';
import { adapterHarness, sandboxAccount, type AdapterHarness } from './test-support';

let sandbox: RunningSandbox;
let h: AdapterHarness;

beforeAll(async () => {
  sandbox = await startExactSandbox({ randomWalk: false });
  h = adapterHarness(sandbox);
  await h.adapters.bitget.loadMarkets();
});
afterAll(async () => sandbox?.close());


describe('Bitget key check of a futures-only key (LIVE-FIDELITY B13)', () => {
  it('is valid and can trade when the futures account answers, with what it cannot see marked unverified', async () => {
    // A futures-only key: Bitget refuses GET /api/v2/spot/account/info with 40014.
    const creds = sandboxAccount(sandbox, 'bitget', { positionMode: 'hedge', permissions: { spot: false } });
    const sent = h.recorder.since();
    expect(await h.adapters.bitget.checkKey(creds)).toEqual({
      valid: true, canTrade: true, canWithdraw: false, ipBound: false, positionMode: 'hedge', error: undefined, unverified: ['canWithdraw', 'ipBound'],
    });
    expect(sent().map((r) => [r.method, r.path, r.code])).toEqual([
      ['GET', '/api/v2/spot/account/info', '40014'],
      ['GET', '/api/v2/mix/account/account', '00000'],
      ['POST', '/api/v2/mix/order/cancel-order', expect.stringMatching(/^(40768|40109|43001)$/)],
    ]);
    expect(sandbox.control.account(creds.uid).orders).toEqual([]);
  });

  it('a futures-only key without trade permission is valid but cannot trade', async () => {
    const creds = sandboxAccount(sandbox, 'bitget', { permissions: { trade: false, spot: false } });
    expect(await h.adapters.bitget.checkKey(creds)).toMatchObject({ valid: true, canTrade: false, positionMode: 'oneway' });
  });

  it('a key refused for itself stays invalid (wrong secret, unknown key)', async () => {
    const creds = sandboxAccount(sandbox, 'bitget', { permissions: { spot: false } });
    const wrongSecret = await h.adapters.bitget.checkKey({ ...creds, secret: `${creds.secret}x` });
    expect(wrongSecret).toMatchObject({ valid: false, canTrade: false });
    expect(wrongSecret.error).toContain('40009');
  });

  it('a key with spot read is read as before: permissions and IPs from spot account info', async () => {
    const creds = sandboxAccount(sandbox, 'bitget', { ips: ['127.0.0.1'], permissions: { withdraw: true } });
    expect(await h.adapters.bitget.checkKey(creds)).toEqual({ valid: true, canTrade: true, canWithdraw: true, ipBound: true, positionMode: 'oneway', error: undefined });
  });
});
