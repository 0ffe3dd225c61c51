import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from '../helpers/test-app';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface WorkerSettings {
  sandboxUrl: string;
  leaseMs: number;
  syncIntervalMs: number;
  safetyPollMs: number;
}

/** A real `server/worker.ts` process on the test database (as `tests/engine/crash.test.ts` starts it): SIGKILL and start again. */
export class WorkerProcess {
  private child: ChildProcess | undefined;
  /** The worker's latest output: its log lines (warnings and errors, on stdout) and anything on stderr. */
  private readonly output: string[] = [];

  constructor(
    private readonly ctx: TestContext,
    private readonly settings: WorkerSettings,
  ) {}

  start(): void {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: this.ctx.database.url,
        MASTER_KEY: this.ctx.config.masterKey,
        DATA_DIR: this.ctx.config.dataDir,
        SANDBOX_URL: this.settings.sandboxUrl,
        EXCHANGE_MODE: 'sandbox',
        LOG_LEVEL: 'warn',
        DISPATCH_LEASE_MS: String(this.settings.leaseMs),
        POSITION_SYNC_INTERVAL_MS: String(this.settings.syncIntervalMs),
        DISPATCH_SAFETY_POLL_MS: String(this.settings.safetyPollMs),
      },
    });
    const keep = (chunk: Buffer) => {
      this.output.push(chunk.toString());
      if (this.output.length > 50) this.output.shift();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.child = child;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** kill -9, and wait until the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** SIGTERM (finishes what is in flight), SIGKILL when it takes longer than `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  /** What the worker wrote lately (its warnings and errors), for a failing seed's report. */
  errors(): string {
    return this.output.join('').slice(-6_000);
  }
}
