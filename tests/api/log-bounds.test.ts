import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildApp } from '../../server/app';
import { createDeps } from '../../server/bootstrap';
import { loadConfig, type Config } from '../../server/config';
import { createDb, type DbHandle } from '../../server/db/client';
import { REQUEST_LOG_BOUNDS } from '../../server/http/request-log';
import { ManualClock } from '../../server/lib/clock';
import { createLogger } from '../../server/logger';
import { sandboxMountsFor } from '../../server/sandbox/index';
import { createTestDatabase, type TestDatabase } from '../helpers/test-app';

/** Every line the app writes, parsed, and their total size: what an operator's disk receives. */
class CapturedLog extends Writable {
  lines: Array<Record<string, unknown>> = [];
  bytes = 0;
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.bytes += chunk.length;
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

let database: TestDatabase;
let handle: DbHandle;
let dataDir: string;
let app: FastifyInstance;
const log = new CapturedLog();
const clock = new ManualClock();

beforeAll(async () => {
  database = await createTestDatabase();
  handle = createDb(database.url, { max: 5, applicationName: 'test' });
  dataDir = mkdtempSync(path.join(tmpdir(), 'copytrade-log-'));
  const defaults = loadConfig({});
  const config: Config = {
    ...defaults,
    dataDir,
    databaseUrl: database.url,
    masterKey: randomBytes(32).toString('base64'),
    runDispatcher: false,
    // TradingView's addresses only, as in live mode: this test's 127.0.0.1 is refused.
    trading: { ...defaults.trading, webhookAllowList: ['52.89.214.238'] },
  };
  const deps = createDeps(config, handle, createLogger('info', log), { clock });
  // Mounted as `npm start` mounts it in sandbox mode: its exchange sockets share the app's server.
  app = await buildApp(deps, { extraPlugins: sandboxMountsFor({ exchangeMode: 'sandbox', dataDir }, { SANDBOX_CONTROL_TOKEN: 'log-test' }, () => undefined) });
  await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app?.close();
  await handle?.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const refusedWebhookLines = () => log.lines.filter((line) => String(line.url ?? line.key ?? '').includes('webhook'));

describe('the log stays bounded whatever callers send', () => {
  it('writes at most 20 lines for 600 refused webhook calls from outside the allow-list, then one line with the count left out', async () => {
    const before = log.bytes;
    const calls = 600;
    for (let i = 0; i < calls; i++) {
      const answer = await app.inject({ method: 'POST', url: `/api/webhook/token-${i}`, payload: 'open', headers: { 'content-type': 'text/plain' } });
      expect(answer.statusCode).toBe(403);
    }
    const written = refusedWebhookLines();
    expect(written).toHaveLength(REQUEST_LOG_BOUNDS.linesPerWindow);
    // Refusals are expected: their reason, no stack, and no token from the URL.
    expect(written.every((line) => line.msg === 'request refused' && line.status === 403 && line.err === undefined)).toBe(true);
    expect(written[0]!.reason).toBe("Webhook calls are accepted only from TradingView's addresses; 127.0.0.1 is not one of them.");
    expect(JSON.stringify(written)).not.toContain('token-');
    expect(log.bytes - before).toBeLessThan(10_000);
    // When the window has passed, the next line comes after the count of those left out.
    clock.advance(REQUEST_LOG_BOUNDS.windowMs);
    await app.inject({ method: 'POST', url: '/api/webhook/token-last', payload: 'open', headers: { 'content-type': 'text/plain' } });
    const [summary, next] = refusedWebhookLines().slice(REQUEST_LOG_BOUNDS.linesPerWindow);
    expect(summary).toMatchObject({ key: '403 POST /api/webhook/:token', suppressed: calls - REQUEST_LOG_BOUNDS.linesPerWindow, windowSeconds: 10 });
    expect(next).toMatchObject({ msg: 'request refused', status: 403 });
  });

  it('opens sandbox trade sockets on the app server without a warning or a stack trace per connection', async () => {
    const { port } = app.server.address() as AddressInfo;
    const from = log.lines.length;
    for (let i = 0; i < 5; i++) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/sandbox/v5/trade`);
      const pong = await new Promise<string>((resolve, reject) => {
        ws.once('open', () => ws.send(JSON.stringify({ op: 'ping', reqId: `p${i}` })));
        ws.once('message', (data) => resolve(String(data)));
        ws.once('error', reject);
      });
      expect(JSON.parse(pong)).toMatchObject({ op: 'pong', retCode: 0 });
      ws.close();
      await new Promise((resolve) => ws.once('close', resolve));
    }
    const lines = log.lines.slice(from);
    expect(lines.filter((line) => Number(line.level) >= 40)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });
});
