import type { Account, MarginMode, Order, Permissions, Position, PositionMode } from './types';

export interface Credentials {
  exchange: Account['exchange'];
  uid: string;
  apiKey: string;
  secret: string;
  /** Bitget only ('' for Bybit). */
  passphrase: string;
}

export interface AccountUpdate {
  label?: string;
  permissions?: Partial<Permissions>;
  ips?: string[];
  positionMode?: PositionMode;
  marginMode?: MarginMode;
  /** D4: every triggered Bybit conditional order of the account finds the margin insufficient. */
  marginShort?: boolean;
}

export interface OrderState {
  id: string;
  clientOrderId: string;
  symbol: string;
  side: Order['side'];
  type: Order['type'];
  kind: Order['kind'];
  status: Order['status'];
  /** Why it stopped without filling completely (types.ts CancelReason). */
  cancelReason?: Order['cancelReason'];
  qty: number;
  price: number;
  filledQty: number;
  avgPrice: number;
  fee: number;
  reduceOnly: boolean;
  positionIdx: Order['positionIdx'];
  triggerPrice: number;
  /** Preset TP/SL carried by an entry order (0 when none). */
  takeProfit: number;
  stopLoss: number;
  labels: Record<string, string>;
  /** When the request that placed it reached the exchange (see Order.receivedAt). */
  receivedAt: number;
  createdAt: number;
}

export interface PositionState {
  symbol: string;
  positionIdx: Position['idx'];
  side: 'long' | 'short';
  size: number;
  entryPrice: number;
  leverage: { long: number; short: number };
  realisedPnl: number;
  takeProfit: number;
  stopLoss: number;
  trailing?: Position['trailing'];
  /** Where the mark price liquidates it (0: no price does), liquidation.ts. */
  liquidationPrice: number;
}

export interface AccountState {
  exchange: Account['exchange'];
  uid: string;
  apiKey: string;
  label: string;
  origin: Account['origin'];
  permissions: Permissions;
  ips: string[];
  positionMode: PositionMode;
  marginMode: MarginMode;
  marginShort: boolean;
  balances: Record<string, number>;
  equity: number;
  available: number;
  positions: PositionState[];
  orders: OrderState[];
}

export interface CounterState {
  requestsByIp: Record<string, number>;
  requestsByAccount: Record<string, number>;
  rateLimitRejections: { byIp: Record<string, number>; byAccount: Record<string, number>; forced: number; total: number };
  /** Addresses banned after exceeding the per-IP ceiling (`exchange:ip`) and when each ban ends (ms epoch). */
  ipBans: Record<string, number>;
  /** Bybit /v5/trade sockets: accepted since the last reset, open now, refused past 500 new per address in 5 minutes. */
  tradeSockets: { opened: number; open: number; refusedByIp: Record<string, number> };
  /** Private sockets (Bybit /v5/private, Bitget /v2/ws/private): accepted since the last reset, open now, refused by `exchange:ip`. */
  privateStreams: { opened: Record<Account['exchange'], number>; open: Record<Account['exchange'], number>; refusedByAddress: Record<string, number> };
}

/** What `dropStreams` cuts: every private socket, those of one exchange, or those of one account (uid or api key). */
export interface StreamDrop {
  exchange?: Account['exchange'];
  account?: string;
  /** Then refuse reconnects for this long (sandbox ms): new sockets of the exchange get HTTP 503, the account's logins are cut. */
  refuseMs?: number;
}

/** The control view of an order. */
export function orderState(order: Order): OrderState {
  return {
    id: order.id,
    clientOrderId: order.clientId,
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    kind: order.kind,
    status: order.status,
    cancelReason: order.cancelReason,
    qty: order.qty,
    price: order.price,
    filledQty: order.filledQty,
    avgPrice: order.avgPrice,
    fee: order.fee,
    reduceOnly: order.reduceOnly,
    positionIdx: order.positionIdx,
    triggerPrice: order.triggerPrice,
    takeProfit: order.takeProfit,
    stopLoss: order.stopLoss,
    labels: { ...order.labels },
    receivedAt: order.receivedAt,
    createdAt: order.createdAt,
  };
}

/** The control view of an open position (`liquidationPrice` from liquidation.ts). */
export function positionState(account: Account, position: Position, liquidationPrice: number): PositionState {
  return {
    symbol: position.symbol,
    positionIdx: position.idx,
    side: position.side ?? 'long',
    size: position.size,
    entryPrice: position.entryPrice,
    leverage: { ...(account.leverage.get(position.symbol) ?? { long: 10, short: 10 }) },
    realisedPnl: position.realisedPnl,
    takeProfit: position.takeProfit,
    stopLoss: position.stopLoss,
    trailing: position.trailing ? { ...position.trailing } : undefined,
    liquidationPrice,
  };
}
