import type { AccountEvent, AccountEvents, OrderChange } from './account-events';
import type { OrderBook } from './book';
import { EngineError } from './engine-error';
import { applyExecution, applyFunding } from './ledger';
import { presetPlan } from './presets';
import { leverageOf, marginSummary } from './margin';
import { findMarket, isMultipleOf, type MarketSpec } from './markets';
import { recordExecution, recordFunding, type FillStamp } from './records';
import type { Strictness } from './strictness';
import type { Account, CancelReason, ExchangeId, Fill, Order, PlaceRequest, Position, PositionIdx, Side } from './types';
import { isOpen, positionKey } from './types';

export const feeRates: Record<ExchangeId, { taker: number; maker: number }> = {
  bybit: { taker: 0.00055, maker: 0.0002 },
  bitget: { taker: 0.0006, maker: 0.0002 },
};

export interface EngineDeps {
  now(): number;
  /** The last traded price: the book follows it, takers fill against it. */
  last(symbol: string): number;
  /** The mark price: positions are valued on it. */
  mark(symbol: string): number;
  nextOrderId(exchange: ExchangeId): string;
  /** Id (Bybit execId, Bitget tradeId), sequence (Bybit `seq`, the records' paging cursor), time and mark price of a new execution. */
  nextFill(exchange: ExchangeId, symbol: string): FillStamp;
  book(exchange: ExchangeId, symbol: string): OrderBook;
  strictness(): Strictness;
  /** Every change of an order, execution, position and wallet is raised here once (the private streams). */
  events: AccountEvents;
}

/** Orders, fills, positions and balances of one account; exchange layers translate requests into these calls. */
export class Engine {
  constructor(private readonly deps: EngineDeps) {}

  /** The symbol's last traded price. */
  last(symbol: string): number {
    return this.deps.last(symbol);
  }

  /** The symbol's mark price. */
  mark(symbol: string): number {
    return this.deps.mark(symbol);
  }

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
      position = {
        symbol, idx, side: null, size: 0, entryPrice: 0, realisedPnl: 0, cumRealisedPnl: 0, takeProfit: 0, stopLoss: 0,
        tpTriggerOn: 'last', slTriggerOn: 'last', openFee: 0, seq: -1, createdAt: now, updatedAt: now,
      };
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
    return this.create(account, request, true);
  }

  /** An exit that fires as it is made (a position's own TP/SL or trailing stop): pushed as triggered, never as waiting. */
  placeTriggered(account: Account, request: PlaceRequest): Order {
    const order = this.create(account, request, false);
    this.trigger(account, order);
    return order;
  }

  /** Validates and books an order; one that trades on arrival is pushed with its fills, one that waits as created. */
  private create(account: Account, request: PlaceRequest, announce: boolean): Order {
    const market = this.market(request.symbol);
    if (request.clientId && account.orders.some((order) => order.clientId === request.clientId)) {
      throw new EngineError('duplicateClientId', `Duplicate client order id ${request.clientId}`);
    }
    const mode = this.positionModeOf(account, request.symbol);
    if ((mode === 'oneway') !== (request.positionIdx === 0)) {
      throw new EngineError('positionModeMismatch', `Position index ${request.positionIdx} does not match the ${mode} position mode`);
    }
    const position = this.slot(account, request.symbol, request.positionIdx);
    const closing = this.closes(request);
    let qty = request.qty;
    if (!request.wholePosition) this.checkQty(market, qty, request.type === 'market' && !closing);
    if (closing && !this.reduces(position, request.side)) {
      const kind = request.kind === 'tpsl' ? 'noPosition' : 'reduceOnlyNoPosition';
      throw new EngineError(kind, `No ${request.positionIdx === 0 ? '' : request.positionIdx === 1 ? 'long ' : 'short '}position of ${request.symbol} to reduce`);
    }
    if (request.kind === 'normal' && request.type === 'market' && closing) qty = Math.min(qty, position.size);
    const refPrice = request.type === 'limit' ? request.price : request.triggerPrice || this.deps.last(request.symbol);
    if (!closing) this.checkOpening(account, market, request, qty, refPrice);
    if (request.refuseWithoutLiquidity && request.type === 'market' && !this.liquid(account, request)) {
      throw new EngineError('noLiquidity', `No ${request.side === 'buy' ? 'ask' : 'bid'} of ${request.symbol} in reach`);
    }

    const order = this.build(account, request, qty, closing);
    account.orders.push(order);
    if (order.kind === 'normal' && this.marketable(account, order)) this.take(account, order);
    if (announce && (order.status === 'new' || order.status === 'untriggered')) this.emitOrder(account, order, 'created');
    return order;
  }

  /** The order a request makes, before it is booked. */
  private build(account: Account, request: PlaceRequest, qty: number, closing: boolean): Order {
    const now = this.deps.now();
    return {
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
      closedPnl: 0,
      triggerPrice: request.triggerPrice ?? 0,
      triggerDirection: request.triggerDirection ?? 0,
      triggerOn: request.triggerOn ?? 'last',
      closeOnTrigger: request.closeOnTrigger ?? false,
      visibleAt: request.visibleAt ?? now,
      trailing: request.trailing ? { ...request.trailing, active: false, extreme: 0 } : undefined,
      takeProfit: request.takeProfit ?? 0,
      stopLoss: request.stopLoss ?? 0,
      tpslMode: request.tpslMode ?? 'Full',
      labels: { ...request.labels },
      receivedAt: request.receivedAt ?? now,
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * A liquidation: the position taken over whole at its bankruptcy price by a system order, labelled
   * `liquidation` (Bybit execType BustTrade, createType CreateByTakeOver_PassThrough; Bitget orderSource
   * liquidation, enterPointSource SYS, tradeSide burst_*).
   */
  takeOver(account: Account, position: Position, price: number): Order {
    const side: Side = position.side === 'long' ? 'sell' : 'buy';
    const request: PlaceRequest = {
      symbol: position.symbol, side, type: 'market', qty: position.size, price: 0, reduceOnly: true, positionIdx: position.idx, clientId: '', kind: 'normal',
      labels: { liquidation: '1' },
    };
    const order = this.build(account, request, position.size, true);
    account.orders.push(order);
    this.fill(account, order, price, 'takeover');
    return order;
  }

  /**
   * What place() refuses whatever the account holds: the request's quantity against its market and, when the
   * request asks, a market order with nothing in the book to take (noLiquidity); for routes that must check
   * before they act (Bitget cancels older reduce-only orders, a change pushed at once, before it places).
   */
  precheck(account: Account, request: PlaceRequest): void {
    if (!request.wholePosition) this.checkQty(this.market(request.symbol), request.qty, request.type === 'market' && !this.closes(request));
    if (request.refuseWithoutLiquidity && request.type === 'market' && !this.liquid(account, request)) {
      throw new EngineError('noLiquidity', `No ${request.side === 'buy' ? 'ask' : 'bid'} of ${request.symbol} in reach`);
    }
  }

  /** A reduce-only order, a hedge order against its slot's side, or a TP/SL leg: it can only shrink a position. */
  private closes(request: PlaceRequest): boolean {
    const hedgeClose = request.positionIdx !== 0 && (request.positionIdx === 1) !== (request.side === 'buy');
    return request.reduceOnly || hedgeClose || request.kind === 'tpsl';
  }

  /** Step, minimum, maximum; an opening market order also within the instrument's maxMktOrderQty (D8). */
  private checkQty(market: MarketSpec, qty: number, openingMarket: boolean): void {
    if (!(qty > 0)) throw new EngineError('invalidParam', 'Order quantity must be a positive number');
    if (qty < market.minQty - 1e-12) throw new EngineError('minQty', `Order quantity ${qty} is below the minimum ${market.minQty}`);
    if (!isMultipleOf(qty, market.qtyStep)) throw new EngineError('qtyStep', `Order quantity ${qty} is not a multiple of the step ${market.qtyStep}`);
    if (qty > market.maxQty) throw new EngineError('maxQty', `Order quantity ${qty} is above the maximum ${market.maxQty}`);
    if (openingMarket && qty > market.maxMktQty + 1e-12) throw new EngineError('maxMktQty', `Market order quantity ${qty} is above the maximum ${market.maxMktQty}`);
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
    this.emitOrder(account, order, 'cancelled');
    return order;
  }

  /** Whether the book has anything a taker on this side can take. */
  private liquid(account: Account, request: PlaceRequest): boolean {
    return this.deps.book(account.exchange, request.symbol).levels(request.side, this.deps.last(request.symbol)).some((level) => level.size > 0);
  }

  /** The exchange refuses an order it had accepted (e.g. a triggered order it cannot place): Rejected, pushed like a cancel. */
  reject(account: Account, order: Order): Order {
    order.status = 'rejected';
    order.updatedAt = this.deps.now();
    this.emitOrder(account, order, 'rejected');
    return order;
  }

  /** A conditional or TP/SL order fires: pushed as triggered, then it executes as taker (Bitget places a new order for it). */
  trigger(account: Account, order: Order): void {
    order.status = 'triggered';
    if (order.type === 'limit') order.kind = 'normal';
    if (account.exchange === 'bitget') order.labels.executeOrderId ??= this.deps.nextOrderId('bitget');
    order.updatedAt = this.deps.now();
    this.emitOrder(account, order, 'triggered');
    this.take(account, order);
  }

  /** A route changed an order in place (Bitget modify-tpsl-order). */
  orderAmended(account: Account, order: Order): void {
    this.emitOrder(account, order, 'amended');
  }

  /** A route changed a position's settings (TP/SL, trailing stop, leverage). */
  positionChanged(account: Account, position: Position): void {
    this.emit(account, { type: 'position', position });
  }

  /** The wallet changed outside trading (a transfer in or out). */
  walletChanged(account: Account): void {
    this.emit(account, { type: 'wallet' });
  }

  /** A market order always; a limit order when it reaches the best level of the other side of the book. */
  private marketable(account: Account, order: Order): boolean {
    if (order.type === 'market') return true;
    const best = this.deps.book(account.exchange, order.symbol).levels(order.side, this.deps.last(order.symbol))[0];
    return best !== undefined && (order.side === 'buy' ? order.price >= best.price : order.price <= best.price);
  }

  /**
   * Executes an order as taker: it sweeps the book levels in reach (a limit order none beyond its price).
   * What the book cannot fill is cancelled for a market or IOC order (as both exchanges do when a market
   * order exhausts the book) and rests for a GTC limit order.
   */
  take(account: Account, order: Order): void {
    const position = this.slot(account, order.symbol, order.positionIdx);
    const qty = this.executableQty(account, order, position);
    if (qty === undefined) return;
    const limit = order.type === 'limit' ? order.price : undefined;
    const sweep = this.deps.book(account.exchange, order.symbol).take(order.side, qty, this.deps.last(order.symbol), limit);
    if (sweep.qty > 0) this.execute(account, order, position, sweep.qty, sweep.avgPrice, feeRates[account.exchange].taker, false);
    if (order.filledQty >= order.qty - 1e-12 || (!isOpen(order) && order.status !== 'triggered')) return;
    const immediate = order.type === 'market' || ['IOC', 'FOK', 'ioc', 'fok'].includes(order.labels.timeInForce ?? order.labels.force ?? '');
    if (!immediate && order.status !== 'triggered') return;
    order.status = immediate ? 'cancelled' : 'new';
    if (immediate) order.cancelReason = 'immediateOrCancel';
    order.updatedAt = this.deps.now();
    this.emitOrder(account, order, immediate ? 'cancelled' : 'activated');
  }

  /**
   * Executes an order whole at a given price: a resting limit order as maker at its own price when the market
   * crosses it; a liquidation's takeover at the bankruptcy price, without a fee (that price already takes the
   * whole margin backing the position).
   */
  fill(account: Account, order: Order, price: number, role: 'maker' | 'takeover' = 'maker'): void {
    const position = this.slot(account, order.symbol, order.positionIdx);
    const qty = this.executableQty(account, order, position);
    const feeRate = role === 'maker' ? feeRates[account.exchange].maker : 0;
    if (qty !== undefined) this.execute(account, order, position, qty, price, feeRate, role === 'maker');
  }

  /** What is left to execute; a reduce-only order never grows a position and is cancelled when nothing is left to reduce. */
  private executableQty(account: Account, order: Order, position: Position): number | undefined {
    let qty = order.wholePosition ? position.size : order.qty - order.filledQty;
    if (order.reduceOnly) {
      if (!this.reduces(position, order.side)) {
        this.deactivate(account, order, 'reduceOnly');
        return undefined;
      }
      qty = Math.min(qty, position.size);
      if (!order.wholePosition && qty < order.qty - order.filledQty) order.qty = order.filledQty + qty;
    }
    if (qty <= 0) {
      this.deactivate(account, order, 'reduceOnly');
      return undefined;
    }
    if (order.wholePosition) order.qty = order.filledQty + qty;
    return qty;
  }

  /**
   * Books one execution, keeps its record (records.ts) and pushes it in the order this sandbox chose (README
   * "Private streams"): the order, the execution, the position, the wallet; then what follows from it (the
   * legs of a flat position cancelled, an entry's TP/SL legs placed).
   */
  private execute(account: Account, order: Order, position: Position, qty: number, price: number, feeRate: number, maker: boolean): void {
    const now = this.deps.now();
    const result = applyExecution(account, position, order.side, qty, price, feeRate, now);
    const fill = recordExecution(account, order, result, { qty, price, feeRate, maker }, this.deps.nextFill(account.exchange, order.symbol));
    order.filledQty = Number((order.filledQty + qty).toFixed(10));
    order.cumValue += qty * price;
    order.avgPrice = order.cumValue / order.filledQty;
    order.fee += result.fee;
    if (result.closedSize > 0) order.closedPnl += result.pnl - (result.fee * result.closedSize) / qty;
    order.status = order.filledQty >= order.qty - 1e-12 ? 'filled' : 'partially_filled';
    order.updatedAt = now;
    position.seq = fill.seq;
    this.emitOrder(account, order, 'filled', fill);
    this.emit(account, { type: 'execution', order, fill });
    if (result.closed) this.clearProtection(position);
    const presets = !order.reduceOnly && position.side ? this.presetsOf(account, order, position) : undefined;
    this.emit(account, { type: 'position', position });
    this.emit(account, { type: 'wallet' });
    if (result.closed) this.cancelWithPosition(account, position);
    for (const old of presets?.replaced ?? []) this.cancel(account, old);
    for (const leg of presets?.legs ?? []) this.place(account, leg);
  }

  /**
   * A funding settlement of an open position (funding.ts): `paid` (negative when received) leaves the wallet,
   * is kept as a funding record and pushed as an execution (Bybit execType Funding), the position and the wallet.
   */
  settleFunding(account: Account, position: Position, paid: number, rate: number, time: number): Fill {
    applyFunding(account, position, paid, time);
    const fill = recordFunding(account, position, paid, rate, { ...this.deps.nextFill(account.exchange, position.symbol), time });
    this.emit(account, { type: 'execution', fill });
    this.emit(account, { type: 'position', position });
    this.emit(account, { type: 'wallet' });
    return fill;
  }

  /** Untriggered orders are deactivated; active and just-triggered ones are cancelled. */
  private deactivate(account: Account, order: Order, reason: CancelReason): void {
    order.status = order.kind === 'normal' || order.status === 'triggered' ? 'cancelled' : 'deactivated';
    order.cancelReason = reason;
    order.updatedAt = this.deps.now();
    this.emitOrder(account, order, 'cancelled');
  }

  /**
   * TP/SL sent with an entry order, applied to the position on the entry's first fill (see presets.ts): Bybit
   * Full mode sets the position's own at once; the orders to cancel and the legs to place are answered.
   */
  private presetsOf(account: Account, order: Order, position: Position): ReturnType<typeof presetPlan> | undefined {
    if ((!order.takeProfit && !order.stopLoss) || order.labels.presetsApplied) return undefined;
    order.labels.presetsApplied = '1';
    return presetPlan(account, order, position);
  }

  /**
   * A flat position loses its TP/SL and trailing stop, and its reduce-only orders are cancelled with it;
   * on Bybit a plain conditional order survives (strictness bybitConditionalSurvivesClose).
   */
  positionClosed(account: Account, position: Position): void {
    this.clearProtection(position);
    this.cancelWithPosition(account, position);
  }

  private clearProtection(position: Position): void {
    position.takeProfit = 0;
    position.stopLoss = 0;
    position.trailing = undefined;
  }

  private cancelWithPosition(account: Account, position: Position): void {
    const conditionalSurvives = account.exchange === 'bybit' && this.deps.strictness().bybitConditionalSurvivesClose;
    for (const order of account.orders) {
      if (order.symbol !== position.symbol || order.positionIdx !== position.idx || !isOpen(order) || !order.reduceOnly) continue;
      if (conditionalSurvives && order.kind === 'conditional') continue;
      this.deactivate(account, order, 'positionClosed');
    }
  }

  private emitOrder(account: Account, order: Order, change: OrderChange, fill?: Fill): void {
    this.emit(account, fill ? { type: 'order', order, change, fill } : { type: 'order', order, change });
  }

  private emit(account: Account, event: AccountEvent): void {
    this.deps.events.emit(account, event);
  }
}
