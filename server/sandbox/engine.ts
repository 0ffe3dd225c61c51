import { EngineError } from './engine-error';
import { leverageOf, marginSummary, USDT } from './margin';
import { findMarket, isMultipleOf, type MarketSpec } from './markets';
import type { Account, ExchangeId, Order, Position, PositionIdx, Side, Trailing } from './types';
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
}

export interface EngineDeps {
  now(): number;
  mark(symbol: string): number;
  nextOrderId(exchange: ExchangeId): string;
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
      createdAt: now,
      updatedAt: now,
    };
    account.orders.push(order);
    if (order.kind === 'normal') {
      const mark = this.deps.mark(order.symbol);
      const marketable = order.type === 'market' || (order.side === 'buy' ? order.price >= mark : order.price <= mark);
      if (marketable) this.fill(account, order, mark, 'taker');
    }
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

  cancel(account: Account, order: Order): Order {
    if (!isOpen(order)) throw new EngineError('orderNotFound', `Order ${order.id} is not open`);
    order.status = 'cancelled';
    order.updatedAt = this.deps.now();
    return order;
  }

  /** Executes an order's remaining quantity at `price`; reduce-only orders never grow a position. */
  fill(account: Account, order: Order, price: number, liquidity: 'taker' | 'maker'): void {
    const position = this.slot(account, order.symbol, order.positionIdx);
    let qty = order.wholePosition ? position.size : order.qty - order.filledQty;
    if (order.reduceOnly) {
      if (!this.reduces(position, order.side)) {
        this.deactivate(order);
        return;
      }
      qty = Math.min(qty, position.size);
      if (!order.wholePosition && qty < order.qty - order.filledQty) order.qty = order.filledQty + qty;
    }
    if (qty <= 0) {
      this.deactivate(order);
      return;
    }
    const fee = this.trade(account, position, order.side, qty, price, feeRates[account.exchange][liquidity]);
    if (order.wholePosition) order.qty = order.filledQty + qty;
    order.filledQty += qty;
    order.cumValue += qty * price;
    order.avgPrice = order.cumValue / order.filledQty;
    order.fee += fee;
    order.status = order.filledQty >= order.qty - 1e-12 ? 'filled' : 'partially_filled';
    order.updatedAt = this.deps.now();
    if (!order.reduceOnly && position.side) this.applyPresets(account, order, position);
    if (position.size === 0) this.positionClosed(account, position);
  }

  private deactivate(order: Order): void {
    order.status = order.kind === 'normal' ? 'cancelled' : 'deactivated';
    order.updatedAt = this.deps.now();
  }

  /** Moves the position and the wallet; answers the fee charged. */
  private trade(account: Account, position: Position, side: Side, qty: number, price: number, feeRate: number): number {
    const direction = side === 'buy' ? 'long' : 'short';
    const now = this.deps.now();
    let pnl = 0;
    let rest = qty;
    if (position.side && position.side !== direction) {
      const closed = Math.min(rest, position.size);
      pnl = closed * (price - position.entryPrice) * (position.side === 'long' ? 1 : -1);
      position.size = Number((position.size - closed).toFixed(10));
      rest = Number((rest - closed).toFixed(10));
      if (position.size === 0) {
        position.side = null;
        position.entryPrice = 0;
        this.positionClosed(account, position);
      }
    }
    if (rest > 0) {
      if (!position.side) {
        position.side = direction;
        position.entryPrice = price;
        position.size = rest;
        position.realisedPnl = 0;
        position.createdAt = now;
      } else {
        position.entryPrice = (position.entryPrice * position.size + price * rest) / (position.size + rest);
        position.size = Number((position.size + rest).toFixed(10));
      }
    }
    const fee = qty * price * feeRate;
    account.balances.set(USDT, (account.balances.get(USDT) ?? 0) + pnl - fee);
    position.realisedPnl += pnl - fee;
    position.cumRealisedPnl += pnl - fee;
    position.updatedAt = now;
    return fee;
  }

  /** TP/SL sent with an entry order: Full mode sets the position's own TP/SL, Partial mode adds sized legs. */
  private applyPresets(account: Account, order: Order, position: Position): void {
    if ((!order.takeProfit && !order.stopLoss) || order.labels.presetsApplied) return;
    order.labels.presetsApplied = '1';
    const exitSide: Side = position.side === 'long' ? 'sell' : 'buy';
    const legs: Array<['tp' | 'sl', number]> = [];
    if (order.takeProfit) legs.push(['tp', order.takeProfit]);
    if (order.stopLoss) legs.push(['sl', order.stopLoss]);
    if (order.tpslMode === 'Full' && account.exchange === 'bybit') {
      if (order.takeProfit) position.takeProfit = order.takeProfit;
      if (order.stopLoss) position.stopLoss = order.stopLoss;
    } else {
      for (const [leg, trigger] of legs) {
        this.place(account, {
          symbol: order.symbol,
          side: exitSide,
          type: 'market',
          qty: order.filledQty,
          price: 0,
          reduceOnly: true,
          positionIdx: order.positionIdx,
          clientId: '',
          kind: 'tpsl',
          wholePosition: order.tpslMode === 'Full',
          triggerPrice: trigger,
          labels: presetLabels(account.exchange, leg),
        });
      }
    }
  }

  /** A flat position loses its TP/SL and trailing stop; its reduce-only and TP/SL orders are deactivated. */
  positionClosed(account: Account, position: Position): void {
    position.takeProfit = 0;
    position.stopLoss = 0;
    position.trailing = undefined;
    for (const order of account.orders) {
      if (order.symbol !== position.symbol || order.positionIdx !== position.idx || !isOpen(order)) continue;
      if (order.reduceOnly) this.deactivate(order);
    }
  }
}

function presetLabels(exchange: ExchangeId, leg: 'tp' | 'sl'): Record<string, string> {
  if (exchange === 'bybit') return { tpsl: leg, stopOrderType: leg === 'tp' ? 'PartialTakeProfit' : 'PartialStopLoss' };
  return { tpsl: leg, planType: leg === 'tp' ? 'pos_profit' : 'pos_loss' };
}
