import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSandbox, type SandboxControl, type StartSandboxOptions } from '../server/sandbox/index';

/**
 * The sandbox in a child process of its own: the exchange's work (parsing, matching, latency timers,
 * its side of every socket) runs beside the server, not on its event loop, as a real exchange would.
 * The parent starts it with `startSandboxProcess` and drives it through `control`, the sandbox's
 * control methods over IPC; this file is what the child runs.
 */
const here = fileURLToPath(import.meta.url);

/** SandboxControl's methods, each answered by the child. */
export type RemoteControl = {
  [K in keyof SandboxControl]: SandboxControl[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
};

export interface SandboxProcess {
  url: string;
  tradeSocketUrl: string;
  pid: number;
  control: RemoteControl;
  /** Resident memory of the sandbox's process, in MiB (Linux /proc). */
  rssMib(): number;
  close(): Promise<void>;
}

interface Call {
  id: number;
  method: keyof SandboxControl;
  args: unknown[];
}

type Reply = { id: number; value?: unknown; error?: string };

interface Ready {
  url: string;
  tradeSocketUrl: string;
}

export async function startSandboxProcess(options: Omit<StartSandboxOptions, 'now' | 'oauthClients'>): Promise<SandboxProcess> {
  const child: ChildProcess = fork(here, ['--sandbox-child', JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Ready));
    child.once('exit', (code) => reject(new Error(`the sandbox process ended with ${code} before listening`)));
  });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (message) => {
    const reply = message as Reply;
    const call = waiting.get(reply.id);
    if (!call) return;
    waiting.delete(reply.id);
    if (reply.error !== undefined) call.reject(new Error(`sandbox control: ${reply.error}`));
    else call.resolve(reply.value);
  });
  let next = 0;
  const control = new Proxy({} as RemoteControl, {
    get: (_target, method: string) =>
      (...args: unknown[]) =>
        new Promise((resolve, reject) => {
          next += 1;
          waiting.set(next, { resolve, reject });
          child.send({ id: next, method: method as keyof SandboxControl, args } satisfies Call);
        }),
  });
  const pid = child.pid!;
  return {
    url: ready.url,
    tradeSocketUrl: ready.tradeSocketUrl,
    pid,
    control,
    rssMib: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const killer = setTimeout(() => child.kill('SIGKILL'), 3_000);
        child.once('exit', () => {
          clearTimeout(killer);
          resolve();
        });
        child.send('stop');
      }),
  };
}

async function serve(options: StartSandboxOptions): Promise<void> {
  const sandbox = await startSandbox(options);
  const control = sandbox.control as unknown as Record<string, (...args: unknown[]) => unknown>;
  process.on('message', (message) => {
    if (message === 'stop') {
      void Promise.race([sandbox.close(), new Promise((resolve) => setTimeout(resolve, 2_000))]).then(() => process.exit(0));
      return;
    }
    const { id, method, args } = message as Call;
    let reply: Reply;
    try {
      reply = { id, value: control[method]!(...args) };
    } catch (error) {
      reply = { id, error: error instanceof Error ? error.message : String(error) };
    }
    process.send!(reply);
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ url: sandbox.url, tradeSocketUrl: sandbox.tradeSocketUrl } satisfies Ready);
}

if (process.argv[2] === '--sandbox-child') await serve(JSON.parse(process.argv[3]!) as StartSandboxOptions);
