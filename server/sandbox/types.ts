export type ExchangeId = 'bybit' | 'bitget';
export type Side = 'buy' | 'sell';
/** 0 = one-way, 1 = hedge long, 2 = hedge short (Bybit's positionIdx; Bitget maps holdSide onto it). */
export type PositionIdx = 0 | 1 | 2;
export type PositionMode = 'oneway' | 'hedge';
export type MarginMode = 'cross' | 'isolated';

export interface Permissions {
  read: boolean;
  trade: boolean;
  withdraw: boolean;
  /** Bitget: the key may read spot (authority stor/stow), which GET /api/v2/spot/account/info needs. */
  spot: boolean;
}

export interface Account {
  exchange: ExchangeId;
  uid: string;
  apiKey: string;
  secret: string;
  /** Bitget only. */
  passphrase: string;
  label: string;
  permissions: Permissions;
  /** Allowed caller addresses; empty = any. */
  ips: string[];
  /** How the key was made: by the control endpoint/tests, or through quick connect (OAuth). */
  origin: 'control' | 'oauth';
  createdAt: number;
  /** Realised wallet balance per coin (USDT is the margin coin). */
  balances: Map<string, number>;
  /** Position mode per symbol; symbols not listed use defaultPositionMode. */
  positionModes: Map<string, PositionMode>;
  defaultPositionMode: PositionMode;
  /** Bybit UTA: one margin mode for the account; Bitget: per symbol. */
  marginModes: Map<string, MarginMode>;
  defaultMarginMode: MarginMode;
  /** Leverage per symbol and side. */
  leverage: Map<string, { long: number; short: number }>;
  positions: Map<string, Position>;
  orders: Order[];
}

export interface Trailing {
  /** Price distance (Bybit trailingStop) or percentage (Bitget callbackRatio / rangeRate). */
  distance?: number;
  ratio?: number;
  activation?: number;
  active: boolean;
  /** Best price seen since activation (highest for a long, lowest for a short). */
  extreme: number;
}

export interface Position {
  symbol: string;
  idx: PositionIdx;
  side: 'long' | 'short' | null;
  size: number;
  entryPrice: number;
  /** Realised PnL (after fees) since the position was opened, and over the slot's life. */
  realisedPnl: number;
  cumRealisedPnl: number;
  takeProfit: number;
  stopLoss: number;
  trailing?: Trailing;
  /** Bybit's cross sequence of the slot's last execution (-1: never traded), shared with that execution's `seq`. */
  seq: number;
  createdAt: number;
  updatedAt: number;
}

export type OrderStatus = 'new' | 'partially_filled' | 'filled' | 'cancelled' | 'untriggered' | 'triggered' | 'deactivated' | 'rejected';

/**
 * Why an order stopped without filling completely: by the user, by the reduce-only rule (nothing left to
 * reduce), as the unfilled rest of an immediate-or-cancel taker (a market order that exhausted the book),
 * or with its position (TP/SL and trailing orders of a position that closed).
 */
export type CancelReason = 'user' | 'reduceOnly' | 'immediateOrCancel' | 'positionClosed';

/**
 * One order, exchange-neutral. `kind`:
 * - normal: market/limit order;
 * - conditional: triggers when the price crosses triggerPrice in triggerDirection, then executes;
 * - tpsl: take-profit/stop-loss attached to a position (size or whole position), triggers on the mark price;
 * - trailing: trailing stop attached to a position, triggers on a retrace from the best price.
 */
export interface Order {
  id: string;
  clientId: string;
  symbol: string;
  /** Execution side (the side of the trade that happens on fill). */
  side: Side;
  type: 'market' | 'limit';
  kind: 'normal' | 'conditional' | 'tpsl' | 'trailing';
  qty: number;
  /** tpsl/trailing orders closing the whole position whatever its size. */
  wholePosition: boolean;
  price: number;
  reduceOnly: boolean;
  positionIdx: PositionIdx;
  status: OrderStatus;
  cancelReason?: CancelReason;
  filledQty: number;
  avgPrice: number;
  cumValue: number;
  fee: number;
  /** Realised PnL of the fills that reduced a position, net of their fees (Bybit's closedPnl). */
  closedPnl: number;
  triggerPrice: number;
  /** 1 = triggers when the price rises to triggerPrice, 2 = when it falls to it. */
  triggerDirection: 0 | 1 | 2;
  trailing?: Trailing;
  /** Preset TP/SL carried by an entry order (applied to the position on fill). */
  takeProfit: number;
  stopLoss: number;
  tpslMode: 'Full' | 'Partial';
  /** Exchange-specific labels echoed in answers (Bybit stopOrderType, Bitget planType, tradeSide...). */
  labels: Record<string, string>;
  /**
   * When the request that placed it reached the exchange: read off the connection, plus the simulated
   * one-way latency it was then held for. `createdAt` comes after the sandbox's own checks and timers.
   */
  receivedAt: number;
  createdAt: number;
  updatedAt: number;
}

export function positionKey(symbol: string, idx: PositionIdx): string {
  return `${symbol}:${idx}`;
}

export function isOpen(order: Order): boolean {
  return order.status === 'new' || order.status === 'partially_filled' || order.status === 'untriggered';
}
