import type { OrderState, PositionState } from '../../server/sandbox/control';
import { parseClientOrderId } from '../../server/trading/exchanges/client-order-id';
import { isLive, type AccountSnapshot, type ExecutionSnapshot, type Snapshot } from './observe';

/**
 * The invariants of issue 27, judged on snapshots of the sandbox and the database:
 * - naked: a position open on the exchange without stops covering its size;
 * - orphan: a live protective order of an execution that is no longer open (ended in the database, or
 *   its position flat on the exchange);
 * - doubled: more than one entry order for one execution, an entry order no execution owns, or an
 *   entry that filled more than its execution asked for;
 * - lost and mismatches: judged once, at settle (`settle.ts`).
 *
 * Seconds are wall-clock sums between samples, counted only past the grace (1 s after the fill, or after
 * the event that ended the execution, once the engine can know of it: `knownFrom`). Whether a seed
 * fails does not hang on those seconds: a naked position or an orphan leg is a violation when it stays
 * past its grace for `boundSamples` samples in a row (each sample is a round trip through the database
 * and the sandbox, so a slow machine stretches the bound with it), or is still there at settle.
 */
export interface DeliveryClock {
  /**
   * From when a condition that began with an event at `anchor` on this customer's account is the engine's
   * to have fixed, judged at `now` (Infinity: not yet, e.g. while its stream is cut or the worker is dead).
   */
  knownFrom(customer: number, anchor: number, now: number): number;
}

export type InvariantName = 'naked' | 'orphan' | 'doubled' | 'lost' | 'mismatch';

export interface Violation {
  invariant: InvariantName;
  customer: number;
  /** Seconds since the seed started. */
  atS: number;
  what: string;
  /** The sandbox's and the database's state of that customer when it was seen. */
  state?: string;
}

export const GRACE_MS = 1_000;
const EPS = 1e-9;

/** A condition that holds across samples: when it began, what it counts from, how long it counted. */
interface Interval {
  since: number;
  countedSamples: number;
  flagged: boolean;
}

export type Side = 'long' | 'short';
const closingSide = (side: Side) => (side === 'long' ? 'sell' : 'buy');
const sideClosedBy = (order: OrderState): Side => (order.side === 'sell' ? 'long' : 'short');
const sideOpenedBy = (order: OrderState): Side => (order.side === 'buy' ? 'long' : 'short');
const slotKey = (customerId: number, symbol: string, side: Side) => `${customerId}|${symbol}|${side}`;

const legOf = (order: OrderState) => parseClientOrderId(order.clientOrderId)?.leg ?? '';
const isStopOrder = (order: OrderState) => order.kind !== 'trailing' && (order.labels.tpsl === 'sl' || /^sl(r\d+)?$/.test(legOf(order)));
const isWholeStop = (order: OrderState) => order.labels.planType === 'pos_loss' || (order.kind === 'tpsl' && order.qty === 0);
/** A protective order of ours: take-profit, stop or trailing leg (the market closes and at-market levels are not). */
const isProtective = (order: OrderState) => /^(tp|sl|tr)/.test(legOf(order)) || order.kind === 'tpsl' || order.kind === 'trailing' || order.labels.tpsl !== undefined;

/** Whether the live stops of `account` cover all of `position`: a whole-position stop, or sized stops adding up to its size. */
export function stopsCover(account: Pick<AccountSnapshot, 'orders'>, position: PositionState): boolean {
  if (position.stopLoss > 0) return true;
  const stops = account.orders.filter((o) => isLive(o) && o.symbol === position.symbol && o.side === closingSide(position.side) && isStopOrder(o));
  if (stops.some(isWholeStop)) return true;
  const sized = stops.reduce((sum, o) => sum + (o.qty - o.filledQty), 0);
  return sized >= position.size - EPS;
}

/** The last fill that opened or grew this side of the position (ms), 0 when none is known. */
function lastOpeningFill(account: AccountSnapshot, symbol: string, side: Side): number {
  let last = 0;
  for (const o of account.orders) if (!o.reduceOnly && o.symbol === symbol && o.filledQty > 0 && sideOpenedBy(o) === side) last = Math.max(last, o.createdAt);
  return last;
}

/** The last fill that reduced this side of the position (ms), 0 when none is known. */
function lastClosingFill(account: AccountSnapshot, symbol: string, side: Side): number {
  let last = 0;
  for (const o of account.orders) if (o.reduceOnly && o.symbol === symbol && o.filledQty > 0 && sideClosedBy(o) === side) last = Math.max(last, o.createdAt);
  return last;
}

const positionOf = (account: AccountSnapshot, symbol: string, side: Side) => account.positions.find((p) => p.symbol === symbol && p.side === side && p.size > EPS);

/** One customer's state as the checker saw it, for a failing seed's report. */
export function describeState(account: AccountSnapshot, executions: readonly ExecutionSnapshot[]): string {
  const positions = account.positions.map((p) => `${p.symbol} ${p.side} ${p.size}${p.stopLoss ? ` sl ${p.stopLoss}` : ''}`).join(', ') || 'flat';
  const orders =
    account.orders
      .filter(isLive)
      .map((o) => `${o.clientOrderId || `(${o.labels.planType ?? o.labels.stopOrderType ?? o.kind})`} ${o.kind} ${o.side} ${o.qty}${o.triggerPrice ? ` @${o.triggerPrice}` : ''}`)
      .join(', ') || 'none';
  const rows = executions
    .filter((e) => e.customerId === account.customerId)
    .map((e) => {
      const legs = e.legs.filter((l) => l.status === 'open').map((l) => `${l.kind}${l.round > 0 ? `r${l.round}` : ''}:${l.quantity}`).join('/');
      return `#${e.id} order ${e.orderId} ${e.state} qty ${e.quantity ?? '-'} closed ${e.closedQty} entry ${e.entryPrice ?? '-'}${e.closeRequested ? ' closing' : ''}${e.claimed ? ' claimed' : ''} legs[${legs}]`;
    })
    .join('; ');
  return `${account.exchange} ${account.uid}: positions ${positions}; live orders ${orders}; executions ${rows || 'none'}`;
}

export interface TrackerOptions {
  startedAt: number;
  boundSamples: number;
  clock: DeliveryClock;
  /** The quantity an execution's entry asked for (by our order id), to tell an entry that filled more. */
  intendedQuantity(orderId: number): number | undefined;
}

/** Accumulates the naked, orphan and doubled figures sample by sample. */
export class InvariantTracker {
  nakedMs = 0;
  orphanMs = 0;
  readonly violations: Violation[] = [];
  private readonly naked = new Map<string, Interval>();
  private readonly orphans = new Map<string, Interval>();
  private readonly endedSeen = new Map<number, number>();
  private readonly flatSeen = new Map<string, number>();
  private readonly openSeen = new Map<string, number>();
  private readonly doubledExecutions = new Set<string>();
  private previousAt: number | undefined;

  constructor(private readonly options: TrackerOptions) {}

  observe(snapshot: Snapshot): void {
    const from = this.previousAt ?? snapshot.at;
    this.previousAt = snapshot.at;
    for (const execution of snapshot.executions) if (['closed', 'failed', 'skipped'].includes(execution.state) && !this.endedSeen.has(execution.id)) this.endedSeen.set(execution.id, snapshot.at);
    this.trackFlatSlots(snapshot);
    this.checkNaked(snapshot, from);
    this.checkOrphans(snapshot, from);
    this.checkDoubled(snapshot);
  }

  /** At settle: every naked position and orphan leg still counting is a violation, however short. */
  flagRemaining(snapshot: Snapshot): void {
    for (const [key, interval] of [...this.naked, ...this.orphans]) {
      if (interval.countedSamples > 0 && !interval.flagged) this.flag(interval, key, snapshot, 'still there at settle');
    }
  }

  private trackFlatSlots(snapshot: Snapshot): void {
    for (const execution of snapshot.executions) {
      if (execution.state !== 'open') continue;
      const account = snapshot.accounts.find((a) => a.customerId === execution.customerId);
      const key = slotKey(execution.customerId, execution.symbol, execution.side);
      if (!account) continue;
      if (positionOf(account, execution.symbol, execution.side)) {
        this.flatSeen.delete(key);
        this.openSeen.set(key, snapshot.at);
      } else if (!this.flatSeen.has(key)) {
        // The fill that flattened it, when one is known since the position was last seen open; else this sample.
        const closing = lastClosingFill(account, execution.symbol, execution.side);
        this.flatSeen.set(key, closing > (this.openSeen.get(key) ?? 0) ? closing : snapshot.at);
      }
    }
  }

  /** Adds the part of [from, at] past `countFrom` to the figure; answers whether this sample counts. */
  private count(interval: Interval, countFrom: number, from: number, at: number, figure: 'nakedMs' | 'orphanMs'): boolean {
    if (at <= countFrom) {
      interval.countedSamples = 0;
      return false;
    }
    this[figure] += at - Math.max(from, countFrom);
    interval.countedSamples += 1;
    return true;
  }

  private checkNaked(snapshot: Snapshot, from: number): void {
    const seen = new Set<string>();
    for (const account of snapshot.accounts) {
      for (const position of account.positions) {
        if (position.size <= EPS || stopsCover(account, position)) continue;
        const key = `naked|${slotKey(account.customerId, position.symbol, position.side)}`;
        seen.add(key);
        const interval = this.naked.get(key) ?? { since: snapshot.at, countedSamples: 0, flagged: false };
        this.naked.set(key, interval);
        const anchor = Math.max(lastOpeningFill(account, position.symbol, position.side), interval.since);
        const countFrom = this.options.clock.knownFrom(account.customer, anchor, snapshot.at) + GRACE_MS;
        if (this.count(interval, countFrom, from, snapshot.at, 'nakedMs') && interval.countedSamples >= this.options.boundSamples && !interval.flagged) {
          this.flag(interval, key, snapshot, `stayed past its grace for ${interval.countedSamples} samples`);
        }
      }
    }
    for (const key of this.naked.keys()) if (!seen.has(key)) this.naked.delete(key);
  }

  /** When the execution owning `order` stopped being open (ms), or undefined while it is open. */
  private endedAt(order: OrderState, account: AccountSnapshot, executions: readonly ExecutionSnapshot[], at: number): number | undefined {
    const parts = parseClientOrderId(order.clientOrderId);
    const execution = parts
      ? executions.find((e) => e.orderId === Number(parts.orderId) && e.customerId === Number(parts.customerId))
      : executions.find((e) => e.customerId === account.customerId && e.legs.some((leg) => leg.exchangeOrderId === order.id));
    if (!execution) return parts ? at : undefined;
    const ended = this.endedSeen.get(execution.id);
    if (ended !== undefined) return ended;
    if (execution.state !== 'open' || execution.entryPrice === null) return undefined;
    return this.flatSeen.get(slotKey(execution.customerId, execution.symbol, execution.side));
  }

  private checkOrphans(snapshot: Snapshot, from: number): void {
    const seen = new Set<string>();
    for (const account of snapshot.accounts) {
      for (const order of account.orders) {
        if (!isLive(order) || !isProtective(order)) continue;
        const ended = this.endedAt(order, account, snapshot.executions, snapshot.at);
        if (ended === undefined) continue;
        const key = `orphan|${account.customerId}|${order.id}|${order.clientOrderId}`;
        seen.add(key);
        const interval = this.orphans.get(key) ?? { since: snapshot.at, countedSamples: 0, flagged: false };
        this.orphans.set(key, interval);
        const countFrom = this.options.clock.knownFrom(account.customer, ended, snapshot.at) + GRACE_MS;
        if (this.count(interval, countFrom, from, snapshot.at, 'orphanMs') && interval.countedSamples >= this.options.boundSamples && !interval.flagged) {
          this.flag(interval, key, snapshot, `stayed past its grace for ${interval.countedSamples} samples`);
        }
      }
    }
    for (const key of this.orphans.keys()) if (!seen.has(key)) this.orphans.delete(key);
  }

  private checkDoubled(snapshot: Snapshot): void {
    for (const account of snapshot.accounts) {
      const entries = account.orders.filter((o) => !o.reduceOnly && o.kind === 'normal' && (o.filledQty > 0 || isLive(o)));
      const perExecution = new Map<string, OrderState[]>();
      for (const order of entries) {
        const parts = parseClientOrderId(order.clientOrderId);
        const key = parts ? `${parts.orderId}-${parts.customerId}` : `unowned-${order.id}`;
        perExecution.set(key, [...(perExecution.get(key) ?? []), order]);
      }
      for (const [key, orders] of perExecution) {
        if (orders.length > 1) this.doubled(key, account, snapshot, `${orders.length} entry orders for one execution: ${orders.map((o) => `${o.clientOrderId} ${o.filledQty}/${o.qty}`).join(', ')}`);
        for (const order of orders) {
          const owner = snapshot.executions.find((e) => e.clientOrderId === order.clientOrderId);
          const intended = owner ? this.options.intendedQuantity(owner.orderId) : undefined;
          if (!owner) this.doubled(key, account, snapshot, `an entry order no execution owns: ${order.clientOrderId || order.id} ${order.side} ${order.filledQty}/${order.qty}`);
          else if (intended !== undefined && order.filledQty > intended + EPS) this.doubled(key, account, snapshot, `entry ${order.clientOrderId} filled ${order.filledQty}, more than the ${intended} asked`);
        }
      }
    }
  }

  private doubled(key: string, account: AccountSnapshot, snapshot: Snapshot, what: string): void {
    if (this.doubledExecutions.has(key)) return;
    this.doubledExecutions.add(key);
    this.violations.push({ invariant: 'doubled', customer: account.customer, atS: this.secondsAt(snapshot.at), what, state: describeState(account, snapshot.executions) });
  }

  private flag(interval: Interval, key: string, snapshot: Snapshot, why: string): void {
    interval.flagged = true;
    const [kind, customerId, ...rest] = key.split('|');
    const account = snapshot.accounts.find((a) => a.customerId === Number(customerId))!;
    const what = kind === 'naked' ? `position ${rest.join(' ')} without a stop covering it` : `protective order ${rest[1] || rest[0]} of an execution no longer open`;
    this.violations.push({
      invariant: kind as InvariantName,
      customer: account.customer,
      atS: this.secondsAt(interval.since),
      what: `${what} (seen from ${this.secondsAt(interval.since)} s, ${why})`,
      state: describeState(account, snapshot.executions),
    });
  }

  secondsAt(at: number): number {
    return Number(((at - this.options.startedAt) / 1000).toFixed(1));
  }
}
