import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app';
import { createDeps } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { createDb } from '../server/db/client';
import { createLogger } from '../server/logger';
import { mountEmptyRoute } from './harness';

/**
 * The server in a child process of its own, so its memory is measured alone: the parent starts it
 * with `startServerProcess`, this file is what the child runs.
 */
const here = fileURLToPath(import.meta.url);

interface Ready {
  url: string;
}

export interface ServerProcess {
  baseUrl: string;
  pid: number;
  /** Resident memory now and at its peak since the last `resetPeak`, in MB (Linux /proc). */
  memory(): { rssMb: number; peakRssMb: number };
  resetPeak(): void;
  stop(): Promise<void>;
}

const kb = (status: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);

export async function startServerProcess(env: { databaseUrl: string; dataDir: string; masterKey: string }): Promise<ServerProcess> {
  const child: ChildProcess = fork(here, ['--serve'], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [])],
    env: { ...process.env, DATABASE_URL: env.databaseUrl, DATA_DIR: env.dataDir, MASTER_KEY: env.masterKey, LOG_LEVEL: 'silent', RUN_DISPATCHER: 'false' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Ready));
    child.once('exit', (code) => reject(new Error(`the server process ended with ${code} before listening`)));
  });
  const pid = child.pid!;
  return {
    baseUrl: ready.url,
    pid,
    memory: () => {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      return { rssMb: kb(status, 'VmRSS') / 1024, peakRssMb: kb(status, 'VmHWM') / 1024 };
    },
    // Writing 5 to clear_refs resets the peak resident set size to the current one (proc(5)).
    resetPeak: () => writeFileSync(`/proc/${pid}/clear_refs`, '5'),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

/** The child: the real app on loopback, ended by the parent's 'stop' or by losing the parent. */
async function serve(): Promise<void> {
  const config = { ...loadConfig(), dataDir: path.resolve(process.env.DATA_DIR!) };
  const handle = createDb(config.databaseUrl!);
  const app = await buildApp(createDeps(config, handle, createLogger('silent')), { extraPlugins: [mountEmptyRoute] });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const stop = async () => {
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.on('message', (message) => message === 'stop' && void stop());
  process.on('disconnect', () => void stop());
  process.send!({ url } satisfies Ready);
}

if (process.argv.includes('--serve')) await serve();
