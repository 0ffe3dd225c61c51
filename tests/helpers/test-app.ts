import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type AppOptions } from '../../server/app';
import { createDeps } from '../../server/bootstrap';
import { loadConfig, type Config } from '../../server/config';
import { createDb, type DbHandle } from '../../server/db/client';
import type { Deps } from '../../server/deps';
import { ManualClock } from '../../server/lib/clock';
import { createLogger } from '../../server/logger';
import { adminQuery, createDatabaseFromTemplate, databaseUrl } from './pg-admin';

export interface ApiResult<T = any> {
  status: number;
  body: { successful: boolean; data: T; error: { message: string } | null };
  headers: Record<string, unknown>;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file (a copy of the run's template). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await createDatabaseFromTemplate(adminUrl, name, inject('pgTemplate'));
  return {
    url: databaseUrl(adminUrl, name),
    name,
    drop: () => adminQuery(adminUrl, `drop database if exists "${name}" with (force)`),
  };
}

/** A connection of its own to a test database, as another process's would be (the caller ends it). */
export async function otherConnection(database: TestDatabase): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return client;
}

export interface TestContext {
  app: FastifyInstance;
  deps: Deps;
  clock: ManualClock;
  database: TestDatabase;
  handle: DbHandle;
  config: Config;
  /** Calls the API in-process; `token` becomes the Bearer header. */
  api<T = any>(method: string, url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string>; payload?: string }): Promise<ApiResult<T>>;
  /** Mails written to the outbox, oldest first. */
  mails(to?: string): Array<{ to: string; subject: string; text: string }>;
  /** The 6-digit code of the newest mail to `to`. */
  lastCode(to: string): string;
  close(): Promise<void>;
}

export interface TestContextOptions {
  /** Reuse another context's database (two app instances on one database). */
  database?: TestDatabase;
  app?: AppOptions;
  config?: Partial<Config>;
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const database = options.database ?? (await createTestDatabase());
  const ownsDatabase = !options.database;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'copytrade-test-data-'));
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    databaseUrl: database.url,
    masterKey: randomBytes(32).toString('base64'),
    logLevel: 'silent',
    runDispatcher: false,
    ...options.config,
  };
  const handle = createDb(database.url, { max: 5, applicationName: 'test' });
  const clock = new ManualClock();
  const deps = createDeps(config, handle, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), { clock });
  const app = await buildApp(deps, options.app);
  await app.ready();
  const outbox = path.join(dataDir, 'outbox');

  const readMails = () => {
    let files: string[] = [];
    try {
      files = readdirSync(outbox).sort();
    } catch {
      return [];
    }
    return files.map((file) => parseEml(readFileSync(path.join(outbox, file), 'utf8')));
  };

  const mails = (to?: string) => {
    const all = readMails();
    return to ? all.filter((mail) => mail.to.toLowerCase() === to.toLowerCase()) : all;
  };

  return {
    app,
    deps,
    clock,
    database,
    handle,
    config,
    async api(method, url, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      const response = await app.inject({
        method: method as 'GET',
        url,
        headers,
        ...(opts.payload !== undefined ? { payload: opts.payload } : opts.body !== undefined ? { payload: opts.body as object } : {}),
      });
      let body: ApiResult['body'];
      try {
        body = response.json();
      } catch {
        body = { successful: false, data: response.body as never, error: { message: 'non-JSON answer' } };
      }
      return { status: response.statusCode, body, headers: response.headers };
    },
    mails,
    lastCode(to) {
      const mail = mails(to).at(-1);
      const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
      if (!code) throw new Error(`No code mailed to ${to}`);
      return code;
    },
    async close() {
      await app.close();
      await handle.close();
      if (ownsDatabase) await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function parseEml(raw: string): { to: string; subject: string; text: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? '';
  const to = header('To').replace(/^.*<|>.*$/g, '');
  let text = rest.join('\n\n');
  if (/quoted-printable/i.test(head)) text = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return { to, subject: header('Subject'), text };
}
