import type { Db } from '../db/client';
import type { ExecutionContext } from './context';
import type { ExchangeId } from './exchanges/types';
import { createWebhookStrategies, type WebhookStrategies } from './webhook-strategies';

/** A dispatcher running in this process, which takes over the executions this process just queued. */
export interface LocalRunner {
  /** The claim name its executions carry (host:pid:random). */
  readonly worker: string;
  /** How long a claim lasts unless renewed (the queue's lease). */
  readonly leaseMs: number;
  /** How many more executions of this exchange's customers it can start now (each exchange has its own slots). */
  freeSlots(lane: ExchangeId): number;
  /** The account slices it leases (only their accounts are handed to it); null when it takes every account. */
  slices(): readonly number[] | null;
  /** An entry on this symbol is being committed: what its entries read on their way out (the book's prices) is fetched meanwhile. */
  prepare(symbol: string): void;
  /** Of the executions a statement claims for it, how many that statement reads the contexts of (the first ones). */
  readonly contextsInStatement: number;
  /**
   * Runs executions already claimed in its name (committed by the caller), read by the claiming
   * statement. `later`: the ids of the others it claimed, whose contexts the runner reads.
   */
  adopt(claimed: ExecutionContext[], later?: readonly number[]): void;
}

/**
 * The in-process hand-off: when a dispatcher runs in this process, the transaction that queues an
 * alert's executions claims them in its name, and once committed they start at once, with no NOTIFY
 * and claim round trip. The rows are the same durable rows: a crash leaves claims that expire.
 */
export interface Handoff {
  /** Registers this process's dispatcher; the returned function detaches it. */
  attach(runner: LocalRunner): () => void;
  runner(): LocalRunner | undefined;
}

/** What the one way into trading keeps per process (`Deps.intake`). */
export interface TradingIntake {
  handoff: Handoff;
  strategies: WebhookStrategies;
  /** The database over the intake's own warm connections (DbHandle.intakeDb): alerts and manual orders are queued through it. */
  db: Db;
}

function createHandoff(): Handoff {
  let current: LocalRunner | undefined;
  return {
    attach(runner) {
      current = runner;
      return () => {
        if (current === runner) current = undefined;
      };
    },
    runner: () => current,
  };
}

export function createTradingIntake(db: Db): TradingIntake {
  return { handoff: createHandoff(), strategies: createWebhookStrategies(), db };
}
