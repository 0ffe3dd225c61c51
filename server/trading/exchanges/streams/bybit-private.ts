import type { ExchangeClock } from '../bybit-ws/exchange-clock';
import { signSocketAuth } from '../bybit-ws/trade-socket';
import type { PlacedOrder, PositionSide } from '../types';
import { numberOf, type AccountEvent, type FillEvent, type OrderEvent, type PositionState } from './account-events';
import { PrivateSocket, type PrivateSocketOptions } from './private-socket';

/** The topics of docs/v5/websocket/private/*.mdx the engine follows. */
export const BYBIT_PRIVATE_TOPICS = ['order', 'execution', 'position', 'wallet'] as const;

/** docs/v5/enum.mdx `orderStatus`, read as ccxt 4.5.84 reads it over REST (so stream and REST lookups agree). */
const ORDER_STATUSES: Record<string, PlacedOrder['status']> = {
  Created: 'open',
  New: 'open',
  PartiallyFilled: 'open',
  Untriggered: 'open',
  Triggered: 'open',
  Active: 'open',
  Filled: 'closed',
  PartiallyFilledCanceled: 'closed',
  Cancelled: 'canceled',
  Deactivated: 'canceled',
  Rejected: 'rejected',
};

/** docs/v5/enum.mdx `execType`. */
const FILL_KINDS: Record<string, FillEvent['kind']> = { Trade: 'trade', BustTrade: 'liquidation', Funding: 'funding', AdlTrade: 'liquidation' };

type Row = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

/** An entry's attached TP/SL (docs/v5/enum.mdx `stopOrderType` PartialStopLoss, StopLoss..., no orderLinkId), as `findAttachedLegs` reads it over REST. */
function attachedOf(row: Row): OrderEvent['attached'] {
  const type = text(row.stopOrderType);
  if (row.orderLinkId || !/^(Partial)?(StopLoss|TakeProfit)$/.test(type)) return undefined;
  const idx = numberOf(row.positionIdx) ?? 0;
  return {
    exchangeOrderId: text(row.orderId),
    kind: type.endsWith('StopLoss') ? 'stopLoss' : 'takeProfit',
    triggerPrice: numberOf(row.triggerPrice) ?? 0,
    quantity: numberOf(row.qty) ?? 0,
    sized: type.startsWith('Partial'),
    planType: undefined,
    positionSide: text(row.side) === 'Sell' ? 'long' : 'short',
    hedged: idx !== 0,
  };
}

function orderEvent(row: Row): OrderEvent | null {
  if (row.category !== undefined && row.category !== 'linear') return null;
  const attached = attachedOf(row);
  return {
    ...(attached ? { attached } : {}),
    type: 'order',
    symbol: text(row.symbol),
    clientOrderId: text(row.orderLinkId),
    exchangeOrderId: text(row.orderId),
    status: ORDER_STATUSES[text(row.orderStatus)] ?? 'unknown',
    filledQty: numberOf(row.cumExecQty) ?? 0,
    avgPrice: numberOf(row.avgPrice) || undefined,
    updatedAt: numberOf(row.updatedTime) ?? 0,
  };
}

function fillEvent(row: Row): FillEvent | null {
  if (row.category !== undefined && row.category !== 'linear') return null;
  return {
    type: 'fill',
    symbol: text(row.symbol),
    clientOrderId: text(row.orderLinkId),
    exchangeOrderId: text(row.orderId),
    fillId: text(row.execId),
    quantity: numberOf(row.execQty) ?? 0,
    price: numberOf(row.execPrice) ?? 0,
    fee: numberOf(row.execFee) ?? 0,
    kind: FILL_KINDS[text(row.execType)] ?? 'other',
  };
}

/**
 * A position row (docs/v5/websocket/private/position.mdx). A flat one has side "" and size 0: its
 * `positionIdx` tells which (0 one-way: both sides of the symbol are flat; 1 long, 2 short in hedge mode).
 */
function positionStates(row: Row): PositionState[] {
  if (row.category !== undefined && row.category !== 'linear') return [];
  const size = numberOf(row.size) ?? 0;
  const idx = numberOf(row.positionIdx) ?? 0;
  const sideText = text(row.side);
  const base = {
    symbol: text(row.symbol),
    size,
    entryPrice: numberOf(row.entryPrice) ?? 0,
    markPrice: numberOf(row.markPrice),
    liquidationPrice: numberOf(row.liqPrice),
    hedged: idx !== 0,
    updatedAt: numberOf(row.updatedTime) ?? 0,
  };
  if (size > 0 && (sideText === 'Buy' || sideText === 'Sell')) return [{ ...base, side: sideText === 'Buy' ? 'long' : 'short' }];
  const sides: PositionSide[] = idx === 1 ? ['long'] : idx === 2 ? ['short'] : ['long', 'short'];
  return sides.map((side) => ({ ...base, size: 0, side }));
}

/** The USDT coin of a wallet row (docs/v5/websocket/private/wallet.mdx). */
function walletEvent(row: Row): AccountEvent | null {
  const coins = Array.isArray(row.coin) ? (row.coin as Row[]) : [];
  const usdt = coins.find((coin) => coin.coin === 'USDT');
  if (!usdt) return null;
  const equity = numberOf(usdt.equity) ?? 0;
  const available = numberOf(row.totalAvailableBalance) ?? equity - (numberOf(usdt.totalPositionIM) ?? 0) - (numberOf(usdt.totalOrderIM) ?? 0);
  return { type: 'wallet', equity, available };
}

/** One push frame `{id, topic, creationTime, data[]}` as events. */
export function bybitEvents(topic: string, data: Row[]): AccountEvent[] {
  const base = topic.split('.')[0];
  if (base === 'order') return data.map(orderEvent).filter((e): e is OrderEvent => e !== null);
  if (base === 'execution') return data.map(fillEvent).filter((e): e is FillEvent => e !== null);
  if (base === 'position') return [{ type: 'positions', positions: data.flatMap(positionStates), complete: false }];
  if (base === 'wallet') return data.map(walletEvent).filter((e): e is AccountEvent => e !== null);
  return [];
}

export interface BybitPrivateOptions extends PrivateSocketOptions {
  apiKey: string;
  secret: string;
  /** Signs `expires` on the exchange's clock (docs/v5/websocket/wss-authentication.mdx). */
  clock?: ExchangeClock | undefined;
}

/** Bybit refused the private stream's auth or subscription: the frame says why. */
export class BybitStreamRefused extends Error {
  constructor(readonly what: 'auth' | 'subscribe', readonly reason: string) {
    super(`Bybit refused the private stream's ${what} (${reason})`);
    this.name = 'BybitStreamRefused';
  }
}

/**
 * One account's Bybit private stream (wss://stream.bybit.com/v5/private): `op:auth` with the signed
 * expiry, one `op:subscribe` of the four topics, `{"op":"ping"}` every 20 s (a socket whose ping went
 * unanswered is cut); each push frame is handed on as events.
 */
export function openBybitPrivate(options: BybitPrivateOptions, onEvents: (events: AccountEvent[]) => void): Promise<PrivateSocket> {
  return PrivateSocket.open(options, {
    ping: '{"op":"ping"}',
    isPong: (frame) => (frame as Row | null)?.op === 'pong' || (frame as Row | null)?.ret_msg === 'pong',
    handshake: async (socket) => {
      const expires = (options.clock?.now() ?? Date.now()) + options.connectTimeoutMs;
      const auth = (await socket.request({ req_id: 'auth', op: 'auth', args: [options.apiKey, expires, signSocketAuth(options.secret, expires)] }, (f) => (f as Row).op === 'auth')) as Row;
      if (auth.success !== true) throw new BybitStreamRefused('auth', text(auth.ret_msg));
      const subscribed = (await socket.request({ req_id: 'sub', op: 'subscribe', args: [...BYBIT_PRIVATE_TOPICS] }, (f) => (f as Row).op === 'subscribe')) as Row;
      if (subscribed.success !== true) throw new BybitStreamRefused('subscribe', text(subscribed.ret_msg));
    },
    events: (frame) => {
      const row = frame as Row | null;
      if (!row || typeof row.topic !== 'string' || !Array.isArray(row.data)) return [];
      return bybitEvents(row.topic, row.data as Row[]);
    },
  }, onEvents);
}
