/**
 * What the trading engine needs from an exchange. Implemented with ccxt for Bybit (V5, linear USDT
 * perpetuals) and Bitget (V2, USDT-M futures). Symbols are exchange ids without separators
 * (BTCUSDT); quantities are in base currency; prices in USDT.
 */
export type ExchangeId = 'bybit' | 'bitget';
export type PositionSide = 'long' | 'short';
export type PositionModeName = 'oneway' | 'hedge';

export interface Credentials {
  apiKey: string;
  secret: string;
  /** Bitget only. */
  passphrase?: string | undefined;
}

export interface MarketInfo {
  symbol: string;
  /** ccxt's unified symbol, e.g. BTC/USDT:USDT. */
  ccxtSymbol: string;
  minQty: number;
  qtyStep: number;
  tickSize: number;
  minNotional: number;
  maxLeverage: number;
}

export interface PlacedOrder {
  clientOrderId: string;
  exchangeOrderId: string | undefined;
  status: 'open' | 'closed' | 'canceled' | 'rejected' | 'unknown';
  filledQty: number;
  avgPrice: number | undefined;
  fee: number | undefined;
}

export interface Position {
  symbol: string;
  side: PositionSide;
  size: number;
  entryPrice: number;
  markPrice: number | undefined;
  unrealizedPnl: number | undefined;
  leverage: number | undefined;
  hedged: boolean;
  stopLossPrice: number | undefined;
}

export interface Balance {
  total: number;
  free: number;
  used: number;
}

export interface KeyCheck {
  valid: boolean;
  canTrade: boolean;
  canWithdraw: boolean;
  ipBound: boolean;
  positionMode: PositionModeName | undefined;
  error: string | undefined;
}

export interface EntryRequest {
  symbol: string;
  side: PositionSide;
  quantity: number;
  clientOrderId: string;
  positionMode: PositionModeName;
  /** Attached to the entry when given (position stop loss). */
  stopLossPrice?: number;
}

export interface ReduceRequest {
  symbol: string;
  /** Side of the position being reduced. */
  side: PositionSide;
  quantity: number;
  clientOrderId: string;
  positionMode: PositionModeName;
}

export interface TakeProfitRequest extends ReduceRequest {
  triggerPrice: number;
}

export interface TrailingStopRequest extends ReduceRequest {
  activationPrice: number;
  /** Callback distance: percent of price (0.01-10) or a price distance in USDT. */
  callback: { type: 'percent' | 'price'; value: number };
}

export interface ExchangeAdapter {
  readonly exchange: ExchangeId;
  /** Cached per process; `refresh` reloads. */
  loadMarkets(refresh?: boolean): Promise<Map<string, MarketInfo>>;
  market(symbol: string): Promise<MarketInfo>;
  fetchBalance(credentials: Credentials): Promise<Balance>;
  setLeverage(credentials: Credentials, symbol: string, leverage: number): Promise<void>;
  setPositionMode(credentials: Credentials, symbol: string, mode: PositionModeName): Promise<void>;
  placeEntry(credentials: Credentials, request: EntryRequest): Promise<PlacedOrder>;
  placeTakeProfit(credentials: Credentials, request: TakeProfitRequest): Promise<PlacedOrder>;
  placeTrailingStop(credentials: Credentials, request: TrailingStopRequest): Promise<PlacedOrder>;
  /** Sets or moves the position's stop loss (e.g. to the entry price after TP1). */
  setStopLoss(credentials: Credentials, request: { symbol: string; side: PositionSide; price: number; positionMode: PositionModeName }): Promise<void>;
  cancelOrder(credentials: Credentials, symbol: string, clientOrderId: string): Promise<void>;
  /** Reduce-only market close of the whole position (or `quantity`); null when there is no position. */
  closePosition(credentials: Credentials, request: Omit<ReduceRequest, 'quantity'> & { quantity?: number }): Promise<PlacedOrder | null>;
  fetchPositions(credentials: Credentials, symbols?: string[]): Promise<Position[]>;
  /** Looks an order up by our client order id; null when the exchange has none. */
  fetchOrderByClientId(credentials: Credentials, symbol: string, clientOrderId: string): Promise<PlacedOrder | null>;
  checkKey(credentials: Credentials): Promise<KeyCheck>;
}

export type FailureCode =
  | 'network'
  | 'timeout'
  | 'rate_limit'
  | 'server'
  | 'auth'
  | 'ip_not_allowed'
  | 'permission'
  | 'insufficient_balance'
  | 'below_minimum'
  | 'duplicate'
  | 'not_found'
  | 'no_position'
  | 'invalid_request';

/** Every adapter error is one of these: retryable (try again within the deadline) or final. */
export class ExchangeFailure extends Error {
  constructor(
    readonly code: FailureCode,
    readonly retryable: boolean,
    /** A sentence a staff member can act on, e.g. "The API key is not valid: ask the customer to reconnect". */
    readonly staffMessage: string,
    readonly exchangeCode?: string,
  ) {
    super(staffMessage);
    this.name = 'ExchangeFailure';
  }
}
