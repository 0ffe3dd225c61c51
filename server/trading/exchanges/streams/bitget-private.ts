import { createHmac } from 'node:crypto';
import type { PlacedOrder } from '../types';
import { numberOf, type AccountEvent, type FillEvent, type OrderEvent, type PositionState } from './account-events';
import { PrivateSocket, type PrivateSocketOptions } from './private-socket';

/** The channels of bitget.com/api-doc/contract/websocket/private/* the engine follows, for USDT-M futures. */
export const BITGET_PRIVATE_CHANNELS = ['orders', 'orders-algo', 'positions', 'account'] as const;
const INST_TYPE = 'USDT-FUTURES';

/** Order-Channel `status`, read as ccxt 4.5.84 reads it (`parseWsOrderStatus`). */
const ORDER_STATUSES: Record<string, PlacedOrder['status']> = {
  new: 'open',
  live: 'open',
  partially_filled: 'open',
  filled: 'closed',
  cancelled: 'canceled',
  canceled: 'canceled',
};

/**
 * Plan-Order-Channel `status`: a plan waiting ('live') or cancelled is known from the push alone; an
 * executed one has its fill on the order it triggered, so its lookup goes to REST ('unknown').
 */
const PLAN_STATUSES: Record<string, PlacedOrder['status']> = { live: 'open', not_trigger: 'open', cancelled: 'canceled', canceled: 'canceled', executed: 'unknown', fail_execute: 'unknown' };

type Row = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

function orderEvents(row: Row): AccountEvent[] {
  const order: OrderEvent = {
    type: 'order',
    symbol: text(row.instId),
    clientOrderId: text(row.clientOid),
    exchangeOrderId: text(row.orderId),
    status: ORDER_STATUSES[text(row.status)] ?? 'unknown',
    filledQty: numberOf(row.accBaseVolume) ?? 0,
    avgPrice: numberOf(row.priceAvg) || undefined,
    updatedAt: numberOf(row.uTime) ?? 0,
  };
  if (!row.tradeId) return [order];
  const liquidation = text(row.enterPointSource).toUpperCase() === 'SYS' || /liquidat/i.test(text(row.orderSource));
  const fill: FillEvent = {
    type: 'fill',
    symbol: order.symbol,
    clientOrderId: order.clientOrderId,
    exchangeOrderId: order.exchangeOrderId,
    fillId: text(row.tradeId),
    quantity: numberOf(row.baseVolume) ?? 0,
    price: numberOf(row.fillPrice) ?? 0,
    // Bitget writes a fee paid as a negative amount.
    fee: -(numberOf(row.fillFee) ?? 0),
    kind: liquidation ? 'liquidation' : 'trade',
  };
  return [order, fill];
}

/** Plan-Order-Channel planType (short names) of the presets an entry carries: the position's whole TP/SL. */
const PRESET_PLANS: Record<string, { kind: 'stopLoss' | 'takeProfit'; planType: string }> = {
  psl: { kind: 'stopLoss', planType: 'pos_loss' },
  pos_loss: { kind: 'stopLoss', planType: 'pos_loss' },
  ptp: { kind: 'takeProfit', planType: 'pos_profit' },
  pos_profit: { kind: 'takeProfit', planType: 'pos_profit' },
};

/** A preset plan as `findAttachedLegs` reads it over REST (whole position: quantity 0). */
function presetOf(row: Row): OrderEvent['attached'] {
  const preset = PRESET_PLANS[text(row.planType)];
  if (!preset) return undefined;
  const posSide = text(row.posSide);
  const hedged = posSide === 'long' || posSide === 'short';
  return {
    exchangeOrderId: text(row.orderId),
    kind: preset.kind,
    triggerPrice: numberOf(row.triggerPrice) ?? 0,
    quantity: 0,
    sized: false,
    planType: preset.planType,
    positionSide: hedged ? (posSide as 'long' | 'short') : undefined,
    hedged,
  };
}

function planEvent(row: Row): OrderEvent {
  const attached = presetOf(row);
  return {
    ...(attached ? { attached } : {}),
    type: 'order',
    symbol: text(row.instId),
    clientOrderId: text(row.clientOid),
    exchangeOrderId: text(row.orderId),
    status: PLAN_STATUSES[text(row.status)] ?? 'unknown',
    filledQty: 0,
    avgPrice: undefined,
    updatedAt: numberOf(row.uTime) ?? 0,
  };
}

function positionState(row: Row): PositionState {
  return {
    symbol: text(row.instId),
    side: text(row.holdSide) === 'short' ? 'short' : 'long',
    size: numberOf(row.total) ?? 0,
    entryPrice: numberOf(row.openPriceAvg) ?? 0,
    markPrice: numberOf(row.markPrice),
    liquidationPrice: numberOf(row.liquidationPrice),
    hedged: text(row.posMode) === 'hedge_mode',
    updatedAt: numberOf(row.uTime) ?? 0,
  };
}

function walletEvents(rows: Row[]): AccountEvent[] {
  const usdt = rows.find((row) => text(row.marginCoin).toUpperCase() === 'USDT');
  if (!usdt) return [];
  return [{ type: 'wallet', equity: numberOf(usdt.usdtEquity) ?? numberOf(usdt.equity) ?? 0, available: numberOf(usdt.available) ?? 0 }];
}

/** One push frame `{action, arg:{channel}, data[], ts}` as events. */
export function bitgetEvents(channel: string, data: Row[]): AccountEvent[] {
  if (channel === 'orders') return data.flatMap(orderEvents);
  if (channel === 'orders-algo') return data.map(planEvent);
  // Every push of the positions channel lists every open position (`[]` when none is left).
  if (channel === 'positions') return [{ type: 'positions', positions: data.map(positionState), complete: true }];
  if (channel === 'account') return walletEvents(data);
  return [];
}

/** base64(HMAC-SHA256(secret, timestamp + "GET" + "/user/verify")), timestamp in seconds (Bitget's WebSocket login). */
export function signBitgetLogin(secret: string, timestampSeconds: string): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}GET/user/verify`).digest('base64');
}

export interface BitgetPrivateOptions extends PrivateSocketOptions {
  apiKey: string;
  secret: string;
  passphrase: string;
  /** The exchange's time now (ms): the login timestamp is checked against Bitget's clock. */
  now?: (() => number) | undefined;
}

/** Bitget refused the private stream's login or a subscription: the answer says why. */
export class BitgetStreamRefused extends Error {
  constructor(readonly what: 'login' | 'subscribe', readonly code: string, reason: string) {
    super(`Bitget refused the private stream's ${what} (${code} ${reason})`);
    this.name = 'BitgetStreamRefused';
  }
}

const isEvent = (frame: unknown, ...events: string[]) => typeof frame === 'object' && frame !== null && events.includes(text((frame as Row).event));

async function loginAndSubscribe(socket: PrivateSocket, options: BitgetPrivateOptions): Promise<void> {
  const timestamp = String(Math.floor((options.now?.() ?? Date.now()) / 1000));
  const login = (await socket.request(
    { op: 'login', args: [{ apiKey: options.apiKey, passphrase: options.passphrase, timestamp, sign: signBitgetLogin(options.secret, timestamp) }] },
    (frame) => isEvent(frame, 'login', 'error'),
  )) as Row;
  if (login.event !== 'login' || text(login.code) !== '0') throw new BitgetStreamRefused('login', text(login.code), text(login.msg));
  // The account channel is scoped by coin, the others by instrument (Account-Channel, Order-Channel pages).
  const args = BITGET_PRIVATE_CHANNELS.map((channel) => (channel === 'account' ? { instType: INST_TYPE, channel, coin: 'default' } : { instType: INST_TYPE, channel, instId: 'default' }));
  // One acknowledgement per channel, or an error (each frame answers one waiter).
  const acks = BITGET_PRIVATE_CHANNELS.map((channel) =>
    socket.expect((frame) => isEvent(frame, 'subscribe') && text(((frame as Row).arg as Row | undefined)?.channel) === channel),
  );
  socket.send({ op: 'subscribe', args });
  const error = await Promise.race([Promise.all(acks).then(() => null), socket.expect((frame) => isEvent(frame, 'error')) as Promise<Row>]);
  if (error) throw new BitgetStreamRefused('subscribe', text(error.code), text(error.msg));
}

/**
 * One account's Bitget private stream (wss://ws.bitget.com/v2/ws/private): `op:login`, one `op:subscribe`
 * of the four channels, the text `ping` every 25 s (Bitget cuts a connection silent for 2 minutes); each
 * push is handed on as events.
 */
export function openBitgetPrivate(options: BitgetPrivateOptions, onEvents: (events: AccountEvent[]) => void): Promise<PrivateSocket> {
  return PrivateSocket.open(options, {
    ping: 'ping',
    isPong: (frame) => frame === 'pong',
    handshake: (socket) => loginAndSubscribe(socket, options),
    events: (frame) => {
      const row = frame as Row | null;
      const channel = text((row?.arg as Row | undefined)?.channel);
      if (!row || !channel || !Array.isArray(row.data)) return [];
      return bitgetEvents(channel, row.data as Row[]);
    },
  }, onEvents);
}
