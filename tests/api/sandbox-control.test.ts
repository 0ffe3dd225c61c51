import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_TOKEN_FILE, CONTROL_TOKEN_HEADER, sandboxMountsFor, startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import { createTestContext, type TestContext } from '../helpers/test-app';

const noLog = () => undefined;

describe('the sandbox control plane answers only X-Sandbox-Control: <token>', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ randomWalk: false });
  });
  afterAll(async () => sandbox?.close());

  it('refuses a request without the header or with a wrong token, and lists nothing', async () => {
    const bare = await fetch(`${sandbox.url}/control/accounts`);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toEqual({
      error: 'The sandbox control endpoint needs the header X-Sandbox-Control with the control token (SANDBOX_CONTROL_TOKEN, or DATA_DIR/sandbox-control.token)',
    });
    const wrong = await fetch(`${sandbox.url}/control/prices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CONTROL_TOKEN_HEADER]: `${sandbox.controlToken}x` },
      body: JSON.stringify({ symbol: 'BTCUSDT', price: 1 }),
    });
    expect(wrong.status).toBe(401);
    expect(sandbox.control.prices().BTCUSDT).not.toBe(1);
    const right = await fetch(`${sandbox.url}/control/accounts`, { headers: { [CONTROL_TOKEN_HEADER]: sandbox.controlToken } });
    expect([right.status, await right.json()]).toEqual([200, []]);
  });
});

describe('npm start mounts the sandbox with a control token', () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  it('writes a random token to DATA_DIR/sandbox-control.token (0600) when SANDBOX_CONTROL_TOKEN is unset', async () => {
    const app = await createTestContext({ database: ctx.database, app: { extraPlugins: sandboxMountsFor(ctx.config, {}, noLog) } });
    try {
      const file = path.join(ctx.config.dataDir, CONTROL_TOKEN_FILE);
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const token = readFileSync(file, 'utf8').trim();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}/sandbox`;
      expect((await fetch(`${base}/control/state`)).status).toBe(401);
      expect((await fetch(`${base}/control/state`, { headers: { [CONTROL_TOKEN_HEADER]: token } })).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('uses SANDBOX_CONTROL_TOKEN when set', async () => {
    const app = await createTestContext({ database: ctx.database, app: { extraPlugins: sandboxMountsFor(ctx.config, { SANDBOX_CONTROL_TOKEN: 'set-by-the-operator' }, noLog) } });
    try {
      const answer = await app.app.inject({ method: 'GET', url: '/sandbox/control/state', headers: { [CONTROL_TOKEN_HEADER]: 'set-by-the-operator' } });
      expect(answer.statusCode).toBe(200);
      expect((await app.app.inject({ method: 'GET', url: '/sandbox/control/state' })).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('mounts nothing in EXCHANGE_MODE=live: the control plane does not exist', async () => {
    expect(sandboxMountsFor({ ...ctx.config, exchangeMode: 'live' }, {}, noLog)).toEqual([]);
    const live = await createTestContext({
      database: ctx.database,
      config: { exchangeMode: 'live' },
      app: { extraPlugins: sandboxMountsFor({ ...ctx.config, exchangeMode: 'live' }, { SANDBOX_CONTROL_TOKEN: 'x' }, noLog) },
    });
    try {
      const answer = await live.app.inject({ method: 'GET', url: '/sandbox/control/accounts', headers: { [CONTROL_TOKEN_HEADER]: 'x' } });
      expect([answer.statusCode, answer.json()]).toEqual([404, { successful: false, data: null, error: { message: 'Route GET /sandbox/control/accounts does not exist' } }]);
    } finally {
      await live.close();
    }
  });
});
