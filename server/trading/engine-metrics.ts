import { Counter, Histogram } from 'prom-client';
import type { ExecutionContext } from './context';

/** Seconds from an alert to its orders: fast fan-outs take well under a second, the entry deadline is 30 s. */
const LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Alert -> first order and alert -> last order of this process's entries. An Order's alert time is its
 * creation (the entry deadline minus the entry window); an entry counts when the exchange acknowledged
 * it. The first entry of an Order placed here is observed at once; its last is known once the Order's
 * entry deadline has passed (no entry is placed after it), and is observed then (at the next entry or
 * scrape). Each process observes the entries it placed: with several workers, the last is per worker.
 */
export class EntryLatency {
  readonly first = new Histogram({
    name: 'copytrade_alert_to_first_order_seconds',
    help: "Seconds from an alert (its Order's creation) to the first entry the exchange acknowledged, per Order",
    buckets: LATENCY_BUCKETS,
    registers: [],
  });
  readonly last = new Histogram({
    name: 'copytrade_alert_to_last_order_seconds',
    help: "Seconds from an alert to the last entry the exchange acknowledged, per Order, observed once its entry deadline has passed",
    buckets: LATENCY_BUCKETS,
    registers: [],
  });
  /** Keyed by Order id and deadline: the test run's processes serve many databases, whose ids repeat. */
  private readonly orders = new Map<string, { alertAt: number; deadline: number; lastAt: number }>();

  placed(ctx: Pick<ExecutionContext, 'orderId' | 'deadlineAt' | 'entryWindowMs'>, at = Date.now()): void {
    this.settle(at);
    const deadline = ctx.deadlineAt.getTime();
    const key = `${ctx.orderId}@${deadline}`;
    const known = this.orders.get(key);
    if (known) {
      known.lastAt = Math.max(known.lastAt, at);
      return;
    }
    const alertAt = deadline - ctx.entryWindowMs;
    this.orders.set(key, { alertAt, deadline, lastAt: at });
    this.first.observe(Math.max(0, at - alertAt) / 1000);
  }

  /** Observes the last entry of every Order whose entry deadline has passed. */
  settle(now = Date.now()): void {
    for (const [orderId, order] of this.orders) {
      if (now <= order.deadline) continue;
      this.last.observe(Math.max(0, order.lastAt - order.alertAt) / 1000);
      this.orders.delete(orderId);
    }
  }
}

/** What the engine of this process counts for GET /metrics (server/metrics): one per process. */
export const engineMetrics = {
  entryLatency: new EntryLatency(),
  reconcilerRepairs: new Counter({
    name: 'copytrade_reconciler_repairs_total',
    help: 'What the account reconciler did: orphan_leg_cancelled (a leg no open execution owns), finding_reported (a position the platform did not open, or larger than its executions, told to staff)',
    labelNames: ['kind'] as const,
    registers: [],
  }),
};
