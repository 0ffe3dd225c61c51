import { describeState, type Side, type Violation } from './invariants';
import type { ExecutionSnapshot, Snapshot } from './observe';
import type { SentAlert } from './world';

/**
 * The checks made once the run has quieted down: nothing lost (every eligible customer of every alert
 * has a position or an audited skip or failure) and the database's open size equal to the exchange's.
 */
const SIZE_EPS = 0.0005;
const round8 = (value: number) => Number(value.toFixed(8));
const remainingOf = (e: ExecutionSnapshot) => round8((e.quantity ?? 0) - e.closedQty);

/** Nothing pending, no close under way, every open execution protected, its fill known, and looked at by the engine since `since`. */
export function engineQuiet(snapshot: Snapshot, since: number): boolean {
  return snapshot.executions.every((e) => {
    if (e.state === 'pending' || e.claimed) return false;
    if (e.state !== 'open') return true;
    return !e.closeRequested && e.protected && e.entryPrice !== null && e.updatedAt > since;
  });
}

/** What must stay the same across two samples for the run to count as settled. */
export function fingerprint(snapshot: Snapshot): string {
  const executions = snapshot.executions.map((e) => [e.id, e.state, e.quantity, e.closedQty, e.closeRequested]);
  const accounts = snapshot.accounts.map((a) => [a.positions.map((p) => [p.side, p.size]), a.orders.filter((o) => ['new', 'untriggered', 'partially_filled'].includes(o.status)).map((o) => o.id)]);
  return JSON.stringify([executions, accounts]);
}

export function lostEntries(snapshot: Snapshot, alerts: readonly SentAlert[], audits: ReadonlyArray<{ orderId: number; customerId: number }>, atS: number): Violation[] {
  const found: Violation[] = [];
  for (const alert of alerts) {
    for (const customerId of alert.eligible) {
      const execution = snapshot.executions.find((e) => e.orderId === alert.orderId && e.customerId === customerId);
      const audited = audits.some((a) => a.orderId === alert.orderId && a.customerId === customerId);
      let why: string | undefined;
      if (!execution) why = audited ? undefined : 'no execution and no entry audit';
      else if (execution.state === 'pending') why = 'its execution is still pending';
      else if (execution.state === 'open' && execution.entryPrice === null) why = 'its entry was placed but its fill is still unknown';
      else if ((execution.state === 'failed' || execution.state === 'skipped') && !audited) why = `its execution ${execution.state} without an entry audit`;
      if (!why) continue;
      const account = snapshot.accounts.find((a) => a.customerId === customerId)!;
      found.push({ invariant: 'lost', customer: account.customer, atS, what: `order ${alert.orderId}: ${why}`, state: describeState(account, snapshot.executions) });
    }
  }
  return found;
}

export function mismatches(snapshot: Snapshot, atS: number): Violation[] {
  const found: Violation[] = [];
  for (const account of snapshot.accounts) {
    const symbols = new Set([...account.positions.map((p) => p.symbol), ...snapshot.executions.filter((e) => e.customerId === account.customerId).map((e) => e.symbol)]);
    for (const symbol of symbols) {
      for (const side of ['long', 'short'] as Side[]) {
        const open = snapshot.executions.filter((e) => e.customerId === account.customerId && e.symbol === symbol && e.side === side && e.state === 'open');
        const database = round8(open.reduce((sum, e) => sum + remainingOf(e), 0));
        const exchange = account.positions.find((p) => p.symbol === symbol && p.side === side)?.size ?? 0;
        const emptyOpen = open.filter((e) => remainingOf(e) <= SIZE_EPS);
        if (Math.abs(database - exchange) <= SIZE_EPS && emptyOpen.length === 0) continue;
        const why = emptyOpen.length > 0 && Math.abs(database - exchange) <= SIZE_EPS ? `execution(s) ${emptyOpen.map((e) => e.id).join(', ')} open with nothing left` : `database holds ${database}, the exchange ${exchange}`;
        found.push({ invariant: 'mismatch', customer: account.customer, atS, what: `${symbol} ${side}: ${why}`, state: describeState(account, snapshot.executions) });
      }
    }
  }
  return found;
}
