import type { Db } from '../../db/client';
import type { AdapterLookup } from '../exchanges/types';
import { engineMetrics } from '../engine-metrics';
import { reconcileAccount } from './reconcile-account';
import type { WarmAccounts } from './warm';

export interface AccountReconciler {
  /** Checks this account before the others waiting (its stream came back after a drop). */
  checkSoon(customerId: number): void;
  stop(): void;
}

/**
 * Runs the reconciler's whole-account check over this worker's warm accounts, one account at a time (its
 * reads are background requests), every `intervalMs`; an account whose stream came back is checked first.
 */
export function startAccountReconciler(input: { db: Db; accounts: WarmAccounts; adapters: AdapterLookup; intervalMs: number; onError: (error: unknown) => void }): AccountReconciler {
  const queue: number[] = [];
  let running = false;
  let stopped = false;

  async function drain(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (!stopped && queue.length > 0) {
        const customerId = queue.shift()!;
        const account = input.accounts.list().find((a) => a.customerId === customerId);
        const adapter = account && input.adapters(account.platformType);
        if (account && adapter) await reconcileAccount(input.db, adapter, account).then(countRepairs, input.onError);
      }
    } finally {
      running = false;
    }
  }

  const enqueueAll = () => {
    for (const account of input.accounts.list()) if (!queue.includes(account.customerId)) queue.push(account.customerId);
    void drain();
  };
  const timer = setInterval(enqueueAll, input.intervalMs);
  timer.unref();

  return {
    checkSoon(customerId) {
      if (stopped) return;
      const at = queue.indexOf(customerId);
      if (at >= 0) queue.splice(at, 1);
      queue.unshift(customerId);
      void drain();
    },
    stop() {
      stopped = true;
      clearInterval(timer);
      queue.length = 0;
    },
  };
}

function countRepairs(result: { orphans: number; findings: number }): void {
  if (result.orphans > 0) engineMetrics.reconcilerRepairs.inc({ kind: 'orphan_leg_cancelled' }, result.orphans);
  if (result.findings > 0) engineMetrics.reconcilerRepairs.inc({ kind: 'finding_reported' }, result.findings);
}
