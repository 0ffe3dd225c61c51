import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../server/app';
import { createDeps } from '../server/bootstrap';
import { loadConfig, type Config } from '../server/config';
import { createDb, type DbHandle } from '../server/db/client';
import { openEmbeddedPostgres } from '../server/db/embedded';
import { migrate } from '../server/db/migrate';
import type { Deps } from '../server/deps';
import { systemClock } from '../server/lib/clock';
import { createLogger } from '../server/logger';
import { insertAccount } from '../server/modules/accounts/repository';
import { createSession } from '../server/modules/auth/sessions';
import { AccountStatus, AccountType, Gender } from '../contract/enums';
import { employees } from '../server/db/schema/index';

/** A fresh embedded PostgreSQL with one migrated database, removed again by `close`. */
export interface BenchDatabase {
  handle: DbHandle;
  dataDir: string;
  close(): Promise<void>;
}

export async function openBenchDatabase(name: string): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `copytrade-bench-${name}-`));
  const embedded = await openEmbeddedPostgres(dataDir);
  const admin = new pg.Client({ connectionString: embedded.adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  // The pool the server runs with (server/db/client.ts), so the benchmark measures what ships.
  const handle = createDb(embedded.urlFor(name));
  try {
    await migrate(handle.pool);
  } catch (error) {
    await handle.close();
    await embedded.stop();
    throw error;
  }
  return {
    handle,
    dataDir,
    close: async () => {
      await handle.close();
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server's configuration for a benchmark: silent, no dispatcher, a throwaway master key. */
export function benchConfig(database: Pick<BenchDatabase, 'dataDir' | 'handle'>): Config {
  return { ...loadConfig({}), dataDir: database.dataDir, databaseUrl: database.handle.url, masterKey: randomBytes(32).toString('base64'), logLevel: 'silent', runDispatcher: false };
}

/** The empty route every list target is compared with: Fastify, the envelope, nothing else. */
export const EMPTY_ROUTE = '/bench/empty';

export function mountEmptyRoute(app: FastifyInstance): void {
  app.get(EMPTY_ROUTE, async () => ({ successful: true, data: null, error: null }));
}

export interface BenchServer {
  app: FastifyInstance;
  deps: Deps;
  baseUrl: string;
}

/** The real app (every route, hook and serializer) listening on loopback, plus the empty route. */
export async function startBenchServer(database: BenchDatabase): Promise<BenchServer> {
  const deps = createDeps(benchConfig(database), database.handle, createLogger('silent'));
  const app = await buildApp(deps, { extraPlugins: [mountEmptyRoute] });
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, deps, baseUrl };
}

/** A bearer token of an existing account, made the way sign-in makes it. */
export async function bearerHeaders(db: DbHandle['db'], accountId: number): Promise<Record<string, string>> {
  return { authorization: `Bearer ${(await createSession(db, systemClock, accountId)).token}` };
}

/** An active admin or employee (both have an employees row), signed in. */
export async function staffHeaders(db: DbHandle['db'], accountType: typeof AccountType.Admin | typeof AccountType.Employee, countryId: number): Promise<Record<string, string>> {
  const role = accountType === AccountType.Admin ? 'admin' : 'employee';
  const accountId = await db.transaction(async (tx) => {
    const id = await insertAccount(tx, {
      firstName: 'Bench', lastName: role, email: `bench.${role}@load.example.com`, age: 30, phone: '+6590000000',
      countryId, gender: Gender.Male, password: randomBytes(12).toString('hex'), accountType, status: AccountStatus.Active,
    });
    await tx.insert(employees).values({ accountId: id });
    return id;
  });
  return bearerHeaders(db, accountId);
}
