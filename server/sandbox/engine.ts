import type { OrderBook } from './book';
import { EngineError } from './engine-error';
import { applyExecution } from './ledger';
import { presetPlan } from './presets';
import { leverageOf, marginSummary } from './margin';
import { findMarket, isMultipleOf, type MarketSpec } from './markets';
import type { Strictness } from './strictness';
import type { Account, CancelReason, ExchangeId, Order, Position, PositionIdx, Side, Trailing } from './types';
import { isOpen, positionKey } from './types';

export const feeRates: Record<ExchangeId, { taker: number; maker: number }> = {
  bybit: { taker: 0.00055, maker: 0.0002 },
  bitget: { taker: 0.0006, maker: 0.0002 },
};

export interface PlaceRequest {
  symbol: string;
  side: Side;
  type: 'market' | 'limit';
  qty: number;
  price: number;
  reduceOnly: boolean;
  positionIdx: PositionIdx;
  clientId: string;
  kind: Order['kind'];
  wholePosition?: boolean;
  triggerPrice?: number;
  triggerDirection?: 0 | 1 | 2;
  trailing?: Omit<Trailing, 'active' | 'extreme'>;
  takeProfit?: number;
  stopLoss?: number;
  tpslMode?: 'Full' | 'Partial';
  labels?: Record<string, string>;
  /** When the request reached the exchange (RequestContext.receivedAt); unset: when placed. */
  receivedAt?: number | undefined;
}

export interface EngineDeps {
  now(): number;
  mark(symbol: string): number;
  nextOrderId(exchange: ExchangeId): string;
  book(exchange: ExchangeId, symbol: string): OrderBook;
  strictness(): Strictness;
}

/** Orders, fills, positions and balances of one account; exchange layers translate requests into these calls. */
export class Engine {
  constructor(private readonly deps: EngineDeps) {}

  market(symbol: string): MarketSpec {
    const market = findMarket(symbol);
    if (!market) throw new EngineError('unknownSymbol', `Unknown symbol ${symbol}`);
    return market;
  }

  slot(account: Account, symbol: string, idx: PositionIdx): Position {
    const key = positionKey(symbol, idx);
    let position = account.positions.get(key);
    if (!position) {
      const now = this.deps.now();
      position = { symbol, idx, side: null, size: 0, entryPrice: 0, realisedPnl: 0, cumRealisedPnl: 0, takeProfit: 0, stopLoss: 0, createdAt: now, updatedAt: now };
      account.positions.set(key, position);
    }
    return position;
  }

  positionModeOf(account: Account, symbol: string): 'oneway' | 'hedge' {
    return account.positionModes.get(symbol) ?? account.defaultPositionMode;
  }

  /** True when an order on this slot would shrink the position rather than grow it. */
  private reduces(position: Position, side: Side): boolean {
    return position.side !== null && (position.side === 'long') !== (side === 'buy');
  }

  place(account: Account, request: PlaceRequest): Order {
    const market = this.market(request.symbol);
    if (request.clientId && account.orders.some((order) => order.clientId === request.clientId)) {
      throw new EngineError('duplicateClientId', `Duplicate client order id ${request.clientId}`);
    }
    const mode = this.positionModeOf(account, request.symbol);
    if ((mode === 'oneway') !== (request.positionIdx === 0)) {
      throw new EngineError('positionModeMismatch', `Position index ${request.positionIdx} does not match the ${mode} position mode`);
    }
    const position = this.slot(account, request.symbol, request.positionIdx);
    const hedgeClose = request.positionIdx !== 0 && (request.positionIdx === 1) !== (request.side === 'buy');
    const closing = request.reduceOnly || hedgeClose || request.kind === 'tpsl';
    let qty = request.qty;
    if (!request.wholePosition) this.checkQty(market, qty);
    if (closing && !this.reduces(position, request.side)) {
      const kind = request.kind === 'tpsl' ? 'noPosition' : 'reduceOnlyNoPosition';
      throw new EngineError(kind, `No ${request.positionIdx === 0 ? '' : request.positionIdx === 1 ? 'long ' : 'short '}position of ${request.symbol} to reduce`);
    }
    if (request.kind === 'normal' && request.type === 'market' && closing) qty = Math.min(qty, position.size);
    const refPrice = request.type === 'limit' ? request.price : request.triggerPrice || this.deps.mark(request.symbol);
    if (!closing) this.checkOpening(account, market, request, qty, refPrice);

    const now = this.deps.now();
    const order: Order = {
      id: this.deps.nextOrderId(account.exchange),
      clientId: request.clientId,
      symbol: request.symbol,
      side: request.side,
      type: request.type,
      kind: request.kind,
      qty: request.wholePosition ? 0 : qty,
      wholePosition: request.wholePosition ?? false,
      price: request.type === 'limit' ? request.price : 0,
      reduceOnly: closing,
      positionIdx: request.positionIdx,
      status: request.kind === 'normal' ? 'new' : 'untriggered',
      filledQty: 0,
      avgPrice: 0,
      cumValue: 0,
      fee: 0,
      triggerPrice: request.triggerPrice ?? 0,
      triggerDirection: request.triggerDirection ?? 0,
      trailing: request.trailing ? { ...request.trailing, active: false, extreme: 0 } : undefined,
      takeProfit: request.takeProfit ?? 0,
      stopLoss: request.stopLoss ?? 0,
      tpslMode: request.tpslMode ?? 'Full',
      labels: { ...request.labels },
      receivedAt: request.receivedAt ?? now,
      createdAt: now,
      updatedAt: now,
    };
    account.orders.push(order);
    if (order.kind === 'normal' && this.marketable(account, order)) this.take(account, order);
    return order;
  }

  private checkQty(market: MarketSpec, qty: number): void {
    if (!(qty > 0)) throw new EngineError('invalidParam', 'Order quantity must be a positive number');
    if (qty < market.minQty - 1e-12) throw new EngineError('minQty', `Order quantity ${qty} is below the minimum ${market.minQty}`);
    if (!isMultipleOf(qty, market.qtyStep)) throw new EngineError('qtyStep', `Order quantity ${qty} is not a multiple of the step ${market.qtyStep}`);
    if (qty > market.maxQty) throw new EngineError('maxQty', `Order quantity ${qty} is above the maximum ${market.maxQty}`);
  }

  private checkOpening(account: Account, market: MarketSpec, request: PlaceRequest, qty: number, refPrice: number): void {
    const notional = qty * refPrice;
    if (notional < market.minNotional) {
      throw new EngineError('minNotional', `Order value ${notional} is below the minimum ${market.minNotional} USDT`);
    }
    const side = request.side === 'buy' ? 'long' : 'short';
    const required = notional / leverageOf(account, request.symbol, request.positionIdx, side) + notional * feeRates[account.exchange].taker;
    const { available } = marginSummary(account, this.deps.mark);
    if (required > available + 1e-9) {
      throw new EngineError('insufficientBalance', `Insufficient balance: ${required.toFixed(4)} USDT required, ${available.toFixed(4)} available`);
    }
  }

  cancel(account: Account, order: Order, reason: CancelReason = 'user'): Order {
    if (!isOpen(order)) throw new EngineError('orderNotFound', `Order ${order.id} is not open`);
    order.status = 'cancelled';
    order.cancelReason = reason;
    order.updatedAt = this.deps.now();
    return order;
  }

  /** A market order always; a limit order when it reaches the best level of the other side of the book. */
  private marketable(account: Account, order: Order): boolean {
    if (order.type === 'market') return true;
    const best = this.deps.book(account.exchange, order.symbol).levels(order.side, this.deps.mark(order.symbol))[0];
    return best !== undefined && (order.side === 'buy' ? order.price >= best.price : order.price <= best.price);
  }

  /**
   * Executes an order as taker: it sweeps the book levels in reach (a limit order none beyond its price).
   * What the book cannot fill is cancelled for a market or IOC order (as both exchanges do when a market
   * order exhausts the book) and rests for a GTC limit order.
   */
  take(account: Account, order: Order): void {
    const position = this.slot(account, order.symbol, order.positionIdx);
    const qty = this.executableQty(order, position);
    if (qty === undefined) return;
    const limit = order.type === 'limit' ? order.price : undefined;
    const sweep = this.deps.book(account.exchange, order.symbol).take(order.side, qty, this.deps.mark(order.symbol), limit);
    if (sweep.qty > 0) this.execute(account, order, position, sweep.qty, sweep.avgPrice, feeRates[account.exchange].taker);
    if (order.filledQty >= order.qty - 1e-12) return;
    const immediate = order.type === 'market' || ['IOC', 'FOK', 'ioc', 'fok'].includes(order.labels.timeInForce ?? order.labels.force ?? '');
    if (immediate) {
      order.status = 'cancelled';
      order.cancelReason = 'immediateOrCancel';
    } else if (order.status === 'triggered') {
      order.status = 'new';
    }
    order.updatedAt = this.deps.now();
  }

  /** Executes a resting limit order as maker, at its own price, when the market crosses it. */
  fill(account: Account, order: Order, price: number): void {
    const position = this.slot(account, order.symbol, order.positionIdx);
    const qty = this.executableQty(order, position);
    if (qty !== undefined) this.execute(account, order, position, qty, price, feeRates[account.exchange].maker);
  }

  /** What is left to execute; a reduce-only order never grows a position and is cancelled when nothing is left to reduce. */
  private executableQty(order: Order, position: Position): number | undefined {
    let qty = order.wholePosition ? position.size : order.qty - order.filledQty;
    if (order.reduceOnly) {
      if (!this.reduces(position, order.side)) {
        this.deactivate(order, 'reduceOnly');
        return undefined;
      }
      qty = Math.min(qty, position.size);
      if (!order.wholePosition && qty < order.qty - order.filledQty) order.qty = order.filledQty + qty;
    }
    if (qty <= 0) {
      this.deactivate(order, 'reduceOnly');
      return undefined;
    }
    if (order.wholePosition) order.qty = order.filledQty + qty;
    return qty;
  }

  private execute(account: Account, order: Order, position: Position, qty: number, price: number, feeRate: number): void {
    const { fee, closed } = applyExecution(account, position, order.side, qty, price, feeRate, this.deps.now());
    order.filledQty = Number((order.filledQty + qty).toFixed(10));
    order.cumValue += qty * price;
    order.avgPrice = order.cumValue / order.filledQty;
    order.fee += fee;
    order.status = order.filledQty >= order.qty - 1e-12 ? 'filled' : 'partially_filled';
    order.updatedAt = this.deps.now();
    if (closed) this.positionClosed(account, position);
    if (!order.reduceOnly && position.side) this.applyPresets(account, order, position);
  }

  /** Untriggered orders are deactivated; active and just-triggered ones are cancelled. */
  private deactivate(order: Order, reason: CancelReason): void {
    order.status = order.kind === 'normal' || order.status === 'triggered' ? 'cancelled' : 'deactivated';
    order.cancelReason = reason;
    order.updatedAt = this.deps.now();
  }

  /** TP/SL sent with an entry order, applied to the position on the entry's first fill (see presets.ts). */
  private applyPresets(account: Account, order: Order, position: Position): void {
    if ((!order.takeProfit && !order.stopLoss) || order.labels.presetsApplied) return;
    order.labels.presetsApplied = '1';
    const { replaced, legs } = presetPlan(account, order, position);
    for (const old of replaced) this.cancel(account, old);
    for (const leg of legs) this.place(account, leg);
  }

  /**
   * A flat position loses its TP/SL and trailing stop, and its reduce-only orders are cancelled with it;
   * on Bybit a plain conditional order survives (strictness bybitConditionalSurvivesClose).
   */
  positionClosed(account: Account, position: Position): void {
    position.takeProfit = 0;
    position.stopLoss = 0;
    position.trailing = undefined;
    const conditionalSurvives = account.exchange === 'bybit' && this.deps.strictness().bybitConditionalSurvivesClose;
    for (const order of account.orders) {
      if (order.symbol !== position.symbol || order.positionIdx !== position.idx || !isOpen(order) || !order.reduceOnly) continue;
      if (conditionalSurvives && order.kind === 'conditional') continue;
      this.deactivate(order, 'positionClosed');
    }
  }
}
