import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../server/db/embedded';

/**
 * `npm start` for real: a child process on an empty DATA_DIR with the embedded PostgreSQL,
 * `npm run create-admin` beside it, a login through the emailed code, a clean stop, a crash.
 */
const root = path.resolve(__dirname, '../..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
/**
 * The server runs in this very process (node with tsx's loader), not under the `tsx` wrapper, which
 * would leave its node child running when the test kills it with SIGKILL (a signal it cannot relay).
 */
const serverCommand = [process.execPath, ['--import', 'tsx', 'server/main.ts']] as const;
const dataDir = mkdtempSync(path.join(tmpdir(), 'copytrade-start-'));
/** How long a server may take to answer after its start, and each test (two or three starts) in all. */
const START_DEADLINE_MS = 180_000;
const TEST_TIMEOUT_MS = 3 * START_DEADLINE_MS;
let server: ChildProcess | undefined;

afterAll(() => {
  server?.kill('SIGKILL');
  killPostgres();
  rmSync(dataDir, { recursive: true, force: true });
});

function env(port: number) {
  return { ...process.env, DATA_DIR: dataDir, PORT: String(port), SKIP_WEB_BUILD: 'true', LOG_LEVEL: 'warn', DATABASE_URL: '' };
}

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(serverCommand[0], [...serverCommand[1]], { cwd: root, env: env(port), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A first start runs initdb and every migration: a generous deadline, the server's answer ends the wait.
  const until = Date.now() + START_DEADLINE_MS;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/docs`).then((r) => r.ok).catch(() => false);
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // Not left running (with its database) after the test gave up on it.
  child.kill('SIGKILL');
  await exited(child);
  killPostgres();
  throw new Error(`server did not start: ${stderr}`);
}

function createAdmin(port: number, email: string) {
  return spawnSync(tsx, ['server/cli/create-admin.ts', '--email', email, '--password', 'first admin password'], { cwd: root, env: env(port), encoding: 'utf8' });
}

async function post(port: number, url: string, body: unknown, token?: string) {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data: any } };
}

function lastCode(): string {
  const outbox = path.join(dataDir, 'outbox');
  const newest = readdirSync(outbox).sort().at(-1)!;
  return /\b(\d{6})\b/.exec(readFileSync(path.join(outbox, newest), 'utf8').split(/\r?\n\r?\n/).slice(1).join('\n'))![1]!;
}

async function login(port: number, email: string): Promise<string> {
  const first = await post(port, '/api/security/login', { email, password: 'first admin password' });
  expect(first.status).toBe(200);
  const verify = await post(port, '/api/security/email/verify', { code: lastCode(), accountId: first.body.data.accountId });
  expect(verify.status).toBe(200);
  return verify.body.data.accessToken.value;
}

function postmasterPid(): number | undefined {
  const file = path.join(dataDir, 'pg', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
}

function killPostgres() {
  const pid = postmasterPid();
  if (pid) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/**
 * Database servers (postmasters) running on this DATA_DIR's cluster, read from /proc. A backend the
 * postmaster has just forked carries the postmaster's command line until it sets its own title (a
 * window a busy machine widens): a match whose parent is itself a match is such a child, not a server.
 */
function postmastersOfDataDir(): number[] {
  const pgDir = path.join(dataDir, 'pg');
  const matches = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (path.basename(argv[0] ?? '') === 'postgres' && argv.includes(pgDir)) matches.set(Number(pid), parentOf(pid));
    } catch {
      // gone meanwhile
    }
  }
  return [...matches].filter(([, parent]) => !matches.has(parent)).map(([pid]) => pid);
}

/** The parent pid, field 4 of /proc/PID/stat (after the command name in parentheses). */
function parentOf(pid: string): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

describe('npm start on an empty DATA_DIR', () => {
  it('serves the API on the embedded PostgreSQL; a created admin logs in with the emailed code', async () => {
    const port = await freePort();
    server = await startServer(port);
    const created = createAdmin(port, 'first.admin@example.com');
    expect(created.stdout).toContain('Admin first.admin@example.com created');
    const token = await login(port, 'first.admin@example.com');
    const me = await post(port, '/api/account', undefined, token);
    expect(me.body.data.role.accountType).toBe(4);

    server.kill('SIGTERM');
    expect(await exited(server)).toBe(0);
    // The server stopped the database it started.
    expect(postmasterPid()).toBeUndefined();
  }, TEST_TIMEOUT_MS);

  it('creates an admin while the server is down, and survives a crash of both processes', async () => {
    const port = await freePort();
    const offline = createAdmin(port, 'second.admin@example.com');
    expect(offline.status).toBe(0);
    expect(postmasterPid()).toBeUndefined();

    server = await startServer(port);
    await login(port, 'second.admin@example.com');
    server.kill('SIGKILL');
    await exited(server);
    killPostgres();

    const next = await freePort();
    server = await startServer(next);
    const token = await login(next, 'first.admin@example.com');
    expect((await post(next, '/api/account', undefined, token)).body.data.email).toBe('first.admin@example.com');
    server.kill('SIGTERM');
    expect(await exited(server)).toBe(0);
  }, TEST_TIMEOUT_MS);

  it('after a kill -9 of npm start, the next start leaves exactly one database server, and its clean stop stops it', async () => {
    server = await startServer(await freePort());
    const first = postmastersOfDataDir();
    expect(first).toHaveLength(1);
    server.kill('SIGKILL');
    await exited(server);
    // The crash orphaned the database server: still running, its owner gone.
    expect(postmastersOfDataDir()).toEqual(first);

    const port = await freePort();
    server = await startServer(port);
    expect(postmastersOfDataDir()).toHaveLength(1);
    await login(port, 'first.admin@example.com');
    server.kill('SIGTERM');
    expect(await exited(server)).toBe(0);
    expect(postmastersOfDataDir()).toEqual([]);
    expect(postmasterPid()).toBeUndefined();
  }, TEST_TIMEOUT_MS);
});
