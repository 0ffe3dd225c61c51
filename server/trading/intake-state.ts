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
  /** Whether the account is in a slice it leases (only those are handed to it). */
  owns(customerId: number): boolean;
  /**
   * Entries it is about to start (claimed in a transaction not yet committed): the request budgets of
   * their exchanges' addresses are leased now, overlapping the commit, instead of in front of the first order.
   */
  expect(entries: ReadonlyArray<{ platformType: number }>): void;
  /** Runs executions already claimed in its name (committed by the caller), loaded in the claiming transaction. */
  adopt(claimed: ExecutionContext[]): void;
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

/**
 * Which strategies' last entry found no eligible customer: their next alert is tried as one statement
 * committed on its own. Only a hint: a wrong guess costs one rolled-back statement, never a wrong answer.
 */
export interface AudienceHints {
  likelyEmpty(strategyId: string): boolean;
  note(strategyId: string, empty: boolean): void;
}

/** What the one way into trading keeps per process (`Deps.intake`). */
export interface TradingIntake {
  handoff: Handoff;
  strategies: WebhookStrategies;
  audience: AudienceHints;
}

function createAudienceHints(): AudienceHints {
  const empty = new Set<string>();
  return {
    likelyEmpty: (strategyId) => empty.has(strategyId),
    note: (strategyId, none) => void (none ? empty.add(strategyId) : empty.delete(strategyId)),
  };
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

export function createTradingIntake(): TradingIntake {
  return { handoff: createHandoff(), strategies: createWebhookStrategies(), audience: createAudienceHints() };
}
