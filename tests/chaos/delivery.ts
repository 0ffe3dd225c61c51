import type { DeliveryClock } from './invariants';
import type { Snapshot } from './observe';

/** Which customers (plan indexes) a window concerns; undefined: all of them. */
export type Scope = ReadonlySet<number> | undefined;

interface Outage {
  scope: Scope;
  start: number;
  end: number | null;
  /** Ends at the first sample from this time on where every account in scope has its stream subscribed again. */
  endsWhenStreamsUpAfter?: number;
}

interface Allowance {
  scope: Scope;
  start: number;
  end: number | null;
  ms: number;
}

const concerns = (scope: Scope, customer: number) => scope === undefined || scope.has(customer);

/**
 * When the engine can know of an event on an account: at once, unless the harness made it impossible
 * (the account's private stream cut or stalled, the worker killed) or slower (latency, delayed stream
 * events, refused requests). Outages move the moment to their end; allowances add to it.
 */
export class Delivery implements DeliveryClock {
  private readonly outages: Outage[] = [];
  private readonly allowances: Allowance[] = [];

  /** Nothing reaches the engine for the customers in scope from `start` until `endOutage` (or streams are up again). */
  outage(scope: Scope, start: number, endsWhenStreamsUpAfter?: number): Outage {
    const outage: Outage = { scope, start, end: null, endsWhenStreamsUpAfter };
    this.outages.push(outage);
    return outage;
  }

  endOutage(outage: Outage, at: number): void {
    if (outage.end === null) outage.end = at;
  }

  /** The engine needs up to `ms` longer for the customers in scope from `start` until `endAllowance`. */
  allowance(scope: Scope, start: number, ms: number): Allowance {
    const allowance: Allowance = { scope, start, end: null, ms };
    this.allowances.push(allowance);
    return allowance;
  }

  endAllowance(allowance: Allowance, at: number): void {
    if (allowance.end === null) allowance.end = at;
  }

  /** Ends the outages waiting for streams once every account they concern is subscribed again. */
  observe(snapshot: Snapshot): void {
    for (const outage of this.outages) {
      if (outage.end !== null || outage.endsWhenStreamsUpAfter === undefined || snapshot.at < outage.endsWhenStreamsUpAfter) continue;
      const accounts = snapshot.accounts.filter((account) => concerns(outage.scope, account.customer));
      if (accounts.every((account) => account.streamUp)) outage.end = snapshot.at;
    }
  }

  /**
   * From when a condition that began with an event at `anchor` is the engine's to have fixed, judged at
   * `now`: after the event could reach it, and after the last outage since (the engine needs its time
   * again once it is back), plus the allowance in force. Infinity while an outage holds.
   */
  knownFrom(customer: number, anchor: number, now: number = anchor): number {
    let at = anchor;
    for (let moved = true; moved && Number.isFinite(at); ) {
      moved = false;
      for (const outage of this.outages) {
        if (!concerns(outage.scope, customer) || outage.start > Math.max(at, now) || (outage.end !== null && outage.end <= at)) continue;
        at = outage.end ?? Infinity;
        moved = true;
      }
    }
    let extra = 0;
    for (const allowance of this.allowances) {
      const inForce = allowance.start <= at && (allowance.end === null || allowance.end >= anchor);
      if (inForce && concerns(allowance.scope, customer)) extra = Math.max(extra, allowance.ms);
    }
    return at + extra;
  }
}
