import type { AttachedLeg, PlacedOrder, Position, PositionSide } from '../types';
import type { AccountEvent, FillEvent, OrderEvent, PositionState } from './account-events';

/** What one batch of events changed, for the engine to act on. */
export interface ViewChanges {
  orders: OrderEvent[];
  fills: FillEvent[];
  /** Positions whose size changed (a fill, a manual close, a liquidation), with the size before. */
  positions: Array<{ state: PositionState; before: number }>;
}

interface Waiter {
  clientOrderId: string;
  done: (order: PlacedOrder) => boolean;
  resolve: (order: PlacedOrder | undefined) => void;
  timer: NodeJS.Timeout;
}

/** Terminal orders are forgotten this long after their last change (their lookups then go to REST). */
const KEEP_DONE_MS = 10 * 60_000;
/** Fill ids remembered per account, to book a fill pushed twice once. */
const FILL_IDS_KEPT = 512;

const keyOf = (symbol: string, side: string) => `${symbol}:${side}`;
const settled = (status: PlacedOrder['status']) => status === 'closed' || status === 'canceled' || status === 'rejected';

/**
 * One account as its private stream shows it: its orders (by our client id and by the exchange's id),
 * its positions and its balance, kept from the pushed events. It answers only while `synced`: the stream
 * is up and the positions were read back over REST after it was subscribed (the catch-up). Until then,
 * and from a drop on, every read goes to REST. An order the view has not seen is never "absent": its
 * lookup goes to REST too.
 */
export class AccountView {
  private synced = false;
  private catchUps = 0;
  /** Position pushes received while the catch-up read is under way: replayed on top of it. */
  private catchingUp: Array<{ states: PositionState[]; complete: boolean }> | undefined;
  private readonly orders = new Map<string, PlacedOrder & { symbol: string; updatedAt: number; seenAt: number; attached?: OrderEvent['attached'] }>();
  private readonly byExchangeId = new Map<string, string>();
  private readonly positions = new Map<string, PositionState>();
  private readonly fillIds: string[] = [];
  private readonly fillIdSet = new Set<string>();
  private readonly waiters = new Set<Waiter>();

  get isSynced(): boolean {
    return this.synced;
  }

  /** Whether the view has answered before (a catch-up after a drop, not the first). */
  get everSynced(): boolean {
    return this.catchUps > 0;
  }

  /** The stream dropped: nothing it knew is trusted until the next catch-up. */
  lost(): void {
    this.synced = false;
    this.catchingUp = undefined;
    this.orders.clear();
    this.byExchangeId.clear();
    this.positions.clear();
  }

  /** The stream is subscribed: events from here on are kept; positions wait for `caughtUp`. */
  catchUp(): void {
    this.lost();
    this.catchingUp = [];
  }

  /** The positions read over REST after subscribing: the view answers from now on (pushed changes since are replayed on top). */
  caughtUp(positions: Position[], now: number): void {
    const pushed = this.catchingUp ?? [];
    this.catchingUp = undefined;
    this.positions.clear();
    for (const p of positions) this.positions.set(keyOf(p.symbol, p.side), { symbol: p.symbol, side: p.side, size: p.size, entryPrice: p.entryPrice, markPrice: p.markPrice, liquidationPrice: undefined, hedged: p.hedged, updatedAt: now });
    for (const push of pushed) this.setPositions(push.states, push.complete);
    this.synced = true;
    this.catchUps += 1;
  }

  /** Applies pushed events; answers what changed. A fill pushed twice counts once. */
  apply(events: AccountEvent[], now: number): ViewChanges {
    const changes: ViewChanges = { orders: [], fills: [], positions: [] };
    for (const event of events) {
      if (event.type === 'order' && this.setOrder(event, now)) changes.orders.push(event);
      else if (event.type === 'fill' && this.newFill(event.fillId)) changes.fills.push(event);
      else if (event.type === 'positions') changes.positions.push(...this.setPositions(event.positions, event.complete));
    }
    if (this.orders.size > 64) this.forgetOld(now);
    return changes;
  }

  /** Records an order we placed (its acknowledgement): a pushed state already known is never overwritten. */
  placed(symbol: string, order: PlacedOrder, now: number): void {
    if (!order.clientOrderId || this.orders.has(order.clientOrderId)) return;
    this.orders.set(order.clientOrderId, { ...order, symbol, updatedAt: 0, seenAt: now });
    if (order.exchangeOrderId) this.byExchangeId.set(order.exchangeOrderId, order.clientOrderId);
  }

  /** The order, when the view knows its state (undefined: ask REST). */
  order(clientOrderId: string): PlacedOrder | undefined {
    if (!this.synced) return undefined;
    const known = this.orders.get(clientOrderId);
    return known && known.status !== 'unknown' ? toPlaced(known) : undefined;
  }

  orderById(exchangeOrderId: string): PlacedOrder | undefined {
    const clientOrderId = this.byExchangeId.get(exchangeOrderId);
    return clientOrderId === undefined ? undefined : this.order(clientOrderId);
  }

  /** The open positions of these symbols (all when none given); undefined when the view cannot answer. */
  openPositions(symbols?: readonly string[]): Position[] | undefined {
    if (!this.synced) return undefined;
    const wanted = symbols ? new Set(symbols) : undefined;
    const open: Position[] = [];
    for (const p of this.positions.values()) {
      if (p.size <= 0 || (wanted && !wanted.has(p.symbol))) continue;
      open.push({ symbol: p.symbol, side: p.side, size: p.size, entryPrice: p.entryPrice, markPrice: p.markPrice, unrealizedPnl: undefined, leverage: undefined, hedged: p.hedged, stopLossPrice: undefined });
    }
    return open;
  }

  /**
   * The open TP/SL the exchange made from entries' attached levels on one position (undefined when the view
   * cannot answer). Seen since the stream was subscribed: an older one is found by the REST lookup.
   */
  attachedLegs(symbol: string, side: PositionSide, hedged: boolean): AttachedLeg[] | undefined {
    if (!this.synced) return undefined;
    const legs: AttachedLeg[] = [];
    for (const order of this.orders.values()) {
      const leg = order.attached;
      if (!leg || order.symbol !== symbol || order.status !== 'open' || leg.hedged !== hedged) continue;
      if (leg.positionSide !== undefined && leg.positionSide !== side) continue;
      legs.push({ exchangeOrderId: leg.exchangeOrderId, kind: leg.kind, triggerPrice: leg.triggerPrice, quantity: leg.quantity, sized: leg.sized, planType: leg.planType });
    }
    return legs;
  }

  /** The liquidation price the exchange gives the position (undefined when not known). */
  liquidationPrice(symbol: string, side: string): number | undefined {
    return this.synced ? this.positions.get(keyOf(symbol, side))?.liquidationPrice : undefined;
  }

  /**
   * Resolves with the order once `done` holds for it (at once when it already does), or undefined after
   * `timeoutMs`, or at once when the view cannot answer.
   */
  waitForOrder(clientOrderId: string, done: (order: PlacedOrder) => boolean, timeoutMs: number): Promise<PlacedOrder | undefined> {
    const now = this.order(clientOrderId);
    if (!this.synced || (now && done(now))) return Promise.resolve(now);
    return new Promise((resolve) => {
      const waiter: Waiter = { clientOrderId, done, resolve, timer: setTimeout(() => this.finish(waiter, undefined), timeoutMs) };
      this.waiters.add(waiter);
    });
  }

  private finish(waiter: Waiter, order: PlacedOrder | undefined): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(waiter);
    waiter.resolve(order);
  }

  private setOrder(event: OrderEvent, now: number): boolean {
    const id = event.clientOrderId || `#${event.exchangeOrderId}`;
    const known = this.orders.get(id);
    if (known && known.updatedAt > event.updatedAt) return false;
    if (known && known.updatedAt === event.updatedAt && known.filledQty > event.filledQty) return false;
    const order = { clientOrderId: event.clientOrderId, exchangeOrderId: event.exchangeOrderId || known?.exchangeOrderId, status: event.status, filledQty: event.filledQty, avgPrice: event.avgPrice, fee: undefined, symbol: event.symbol, updatedAt: event.updatedAt, seenAt: now, attached: event.attached ?? known?.attached };
    this.orders.set(id, order);
    if (event.exchangeOrderId) this.byExchangeId.set(event.exchangeOrderId, id);
    for (const waiter of this.waiters) {
      if (waiter.clientOrderId === id && order.status !== 'unknown' && waiter.done(toPlaced(order))) this.finish(waiter, toPlaced(order));
    }
    return true;
  }

  private newFill(fillId: string): boolean {
    if (!fillId) return true;
    if (this.fillIdSet.has(fillId)) return false;
    this.fillIdSet.add(fillId);
    this.fillIds.push(fillId);
    if (this.fillIds.length > FILL_IDS_KEPT) this.fillIdSet.delete(this.fillIds.shift()!);
    return true;
  }

  private setPositions(states: PositionState[], complete: boolean): ViewChanges['positions'] {
    if (this.catchingUp) {
      this.catchingUp.push({ states, complete });
      return [];
    }
    const changed: ViewChanges['positions'] = [];
    if (complete) {
      const listed = new Set(states.map((s) => keyOf(s.symbol, s.side)));
      for (const [key, p] of this.positions) if (!listed.has(key) && p.size > 0) changed.push(...this.setPosition({ ...p, size: 0 }, true));
    }
    for (const state of states) changed.push(...this.setPosition(state, false));
    return changed;
  }

  private setPosition(state: PositionState, force: boolean): ViewChanges['positions'] {
    const key = keyOf(state.symbol, state.side);
    const known = this.positions.get(key);
    if (!force && known && known.updatedAt > state.updatedAt) return [];
    this.positions.set(key, state);
    const before = known?.size ?? 0;
    return before === state.size ? [] : [{ state, before }];
  }

  private forgetOld(now: number): void {
    for (const [id, order] of this.orders) {
      if (settled(order.status) && now - order.seenAt > KEEP_DONE_MS) {
        this.orders.delete(id);
        if (order.exchangeOrderId) this.byExchangeId.delete(order.exchangeOrderId);
      }
    }
  }
}

function toPlaced(order: PlacedOrder): PlacedOrder {
  return { clientOrderId: order.clientOrderId, exchangeOrderId: order.exchangeOrderId, status: order.status, filledQty: order.filledQty, avgPrice: order.avgPrice, fee: order.fee };
}
