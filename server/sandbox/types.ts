import type { PriceKind } from './prices';

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
  /** Every execution booked on the account, oldest first: trades, liquidations, funding (records.ts). */
  fills: Fill[];
  /** Test control: every margin check of a triggered conditional order finds the margin insufficient (D4). */
  marginShort: boolean;
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
  /** Which price the position's own take-profit and stop-loss watch (Bybit tpTriggerBy/slTriggerBy, default LastPrice). */
  tpTriggerOn: PriceKind;
  slTriggerOn: PriceKind;
  trailing?: Trailing;
  /** Fees paid by the fills that opened the current size (Bybit closed-pnl openFee is its share of them). */
  openFee: number;
  /** Bybit's cross sequence of the slot's last execution (-1: never traded), shared with that execution's `seq`. */
  seq: number;
  createdAt: number;
  updatedAt: number;
}

/**
 * One execution the exchange books for an account: a trade (a fill of an order), a liquidation (the position
 * taken over at its bankruptcy price) or a funding settlement. `fee` is what the account paid (negative when
 * it received, as funding can); `pnl` the gross PnL of the part that closed a position.
 */
export interface Fill {
  id: string;
  /** Sandbox-wide sequence: the paging cursor of the exchanges' record endpoints. */
  seq: number;
  kind: 'trade' | 'liquidation' | 'funding';
  symbol: string;
  positionIdx: PositionIdx;
  /** The order it filled (funding: none). */
  orderId: string;
  clientId: string;
  side: Side;
  qty: number;
  price: number;
  fee: number;
  feeRate: number;
  maker: boolean;
  markPrice: number;
  /** Size of the position it closed (0 when it opened), the position's average entry, gross PnL, and the open fees it carries off. */
  closedSize: number;
  entryPrice: number;
  pnl: number;
  openFee: number;
  /** Opening or closing in the position's terms: open_long, close_short, ... (Bitget tradeSide/businessType). */
  effect: 'open' | 'close';
  positionSide: 'long' | 'short';
  walletAfter: number;
  time: number;
}

export type OrderStatus = 'new' | 'partially_filled' | 'filled' | 'cancelled' | 'untriggered' | 'triggered' | 'deactivated' | 'rejected';

/**
 * Why an order stopped without filling completely: by the user, by the reduce-only rule (nothing left to
 * reduce), as the unfilled rest of an immediate-or-cancel taker (a market order that exhausted the book),
 * with its position (TP/SL and trailing orders of a position that closed), a triggered conditional order
 * the margin could not carry (Bybit, without closeOnTrigger), an order cancelled to free margin for a
 * closeOnTrigger stop, or the orders of a position about to be liquidated.
 */
export type CancelReason = 'user' | 'reduceOnly' | 'immediateOrCancel' | 'positionClosed' | 'insufficientMargin' | 'closeOnTrigger' | 'liquidation';

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
  /** Which price the trigger watches: Bybit triggerBy (LastPrice default), Bitget triggerType (fill_price = last). */
  triggerOn: PriceKind;
  /** Bybit closeOnTrigger: when it triggers it reduces the position whatever the margin (create-order.mdx). */
  closeOnTrigger: boolean;
  /** Order queries see it from this time on (Bybit acknowledges a create before the order is visible; D6). */
  visibleAt: number;
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

/** An order as the venues' routes hand it to the engine. */
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
  /** The price the trigger watches (default the last price). */
  triggerOn?: PriceKind;
  closeOnTrigger?: boolean;
  /** When the request reached the exchange (RequestContext.receivedAt); unset: when placed. */
  receivedAt?: number | undefined;
  /** Order queries see it only from this time on (D6); unset: at once. */
  visibleAt?: number | undefined;
  /** A market order the book has nothing in reach for is refused (noLiquidity) rather than cancelled unfilled. */
  refuseWithoutLiquidity?: boolean;
}
