import type { HealthSyncResult } from '../../../contract/api/accountHealth';
import type { Deps } from '../../deps';
import { syncCustomers, type SyncDeps } from './sync';

/** pg_try_advisory_lock key of the all-customers wallet sync ('wall' in ASCII). */
export const WALLET_SYNC_LOCK = 0x77616c6c;

export type JobDeps = SyncDeps & Pick<Deps, 'pool'>;

/**
 * Syncs every connected customer unless another process (or an earlier run) is already doing it:
 * the advisory lock lives on one pooled connection for the length of the run. Answers null when
 * the lock was taken.
 */
export async function runWalletSync(deps: JobDeps, signal?: AbortSignal): Promise<HealthSyncResult | null> {
  const client = await deps.pool.connect();
  // The lock's connection sits idle while the run works on others. Lost meanwhile (a database restart,
  // a terminated backend), its error must not go unhandled, which would end the process: the run goes
  // on, the lock went with the connection, and the connection is not given back to the pool.
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost = error;
    deps.log.warn({ err: error }, 'the wallet sync lost the connection holding its lock; the run goes on');
  };
  client.on('error', onError);
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [WALLET_SYNC_LOCK]);
    if (!rows[0]?.locked) return null;
    try {
      return await syncCustomers(deps, undefined, signal);
    } finally {
      if (!lost) await client.query('select pg_advisory_unlock($1)', [WALLET_SYNC_LOCK]);
    }
  } finally {
    client.off('error', onError);
    client.release(lost);
  }
}

/** First run shortly after start, so a restarted server shows fresh health without waiting a full interval. */
const FIRST_RUN_DELAY_MS = 15_000;

/** The periodic sync of this process; `stop` ends a run in progress after the customers in flight. */
export function startWalletSyncJob(deps: JobDeps, intervalMs: number): { stop(): Promise<void> } {
  /** This process's run in progress: a tick meanwhile starts none (a run can outlast the interval). */
  let running: Promise<unknown> | undefined;
  const stopping = new AbortController();
  const tick = () => {
    if (running) return;
    running = runWalletSync(deps, stopping.signal)
      .then((result) => result && deps.log.info({ ...result }, 'wallet sync done'))
      .catch((error: unknown) => deps.log.error({ err: error }, 'wallet sync run failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(tick, Math.min(FIRST_RUN_DELAY_MS, intervalMs));
  const timer = setInterval(tick, intervalMs);
  first.unref();
  timer.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      // A run of thousands of accounts takes minutes behind the rate limits: only those in flight finish.
      stopping.abort();
      await running;
    },
  };
}
