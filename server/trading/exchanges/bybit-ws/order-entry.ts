import type { ExchangeRateLimiter } from '../rate-limiter';
import type { Credentials, ExchangeFailure, OrderEntryWindow, PlacedOrder } from '../types';
import type { BybitTradeSessions } from './sessions';
import { ExchangeClock } from './exchange-clock';
import { TradeSocketLost, type TradeFrame } from './trade-socket';

/** Bybit's receive window: a frame arriving later than this after its timestamp is refused (10002), never applied. */
export const TRADE_RECV_WINDOW_MS = 5_000;

/**
 * Answers meaning "not accepted, try elsewhere" (guideline.mdx): 10403 the address's 3000 orders/s,
 * 10429 system frequency protection, 10016 server error or restart, 10019 the trade service restarting.
 */
const SEND_OVER_REST = new Set([10403, 10429, 10016, 10019]);
/**
 * Answers after which this connection takes no more orders: "please reconnect" (guideline.mdx for 10019,
 * the trade service restarting; 10016 likewise when a restart is under way). The session is closed and
 * reopened by the sessions' usual reopening (LIVE-FIDELITY D10).
 */
const REOPEN_SESSION = new Set([10016, 10019]);
/** After a 10403 the address's socket path pauses this long (the window is one second); REST carries the orders meanwhile. */
const ADDRESS_PAUSE_MS = 1_000;

export interface SocketEntryOptions {
  sessions: BybitTradeSessions;
  limiter: ExchangeRateLimiter;
  egress: string;
  /** Bybit's broker header (`Referer`), as on REST. */
  brokerCode: string;
  /** How long an order waits for its answer before it is looked up (default: the receive window). */
  requestTimeoutMs?: number | undefined;
  /** The exchange's clock against ours, also fed by the sessions' pongs (default: one of its own). */
  clock?: ExchangeClock | undefined;
}

export interface SocketCreate {
  credentials: Credentials;
  clientOrderId: string;
  /** The REST body of /v5/order/create (args[0] of the op). */
  body: Record<string, unknown>;
  deadline?: number | undefined;
  /** Looks the order up by its client id (at most two reads); null when the exchange has none. */
  lookup: () => Promise<PlacedOrder | null>;
  /** The exchange's refusal as a failure (the same classes as a REST answer with that code). */
  refusal: (frame: TradeFrame) => ExchangeFailure;
}

export interface SocketCancel {
  credentials: Credentials;
  /** The REST body of /v5/order/cancel (args[0] of the op): category, symbol, and orderLinkId or orderId. */
  body: Record<string, unknown>;
  refusal: (frame: TradeFrame) => ExchangeFailure;
}

/** Placed over the socket (or found placed after a lost answer), or to be sent over REST. */
export type SocketOutcome = { kind: 'placed'; order: PlacedOrder } | { kind: 'rest'; reason: string };

/**
 * Order entry over the account's /v5/trade session. The order takes the account's order slot of the
 * shared limiter (Bybit counts REST and WebSocket orders together) and the address's order-entry window,
 * never the HTTP window. An order whose answer is lost (socket closed, timeout) is looked up by its
 * client id before anything else: found, it is the answer; not found, it goes over REST with the same
 * client id, which Bybit would refuse as a duplicate (110072) had the first one arrived after all.
 */
export class BybitSocketEntry {
  private pausedUntil = 0;
  private readonly clock: ExchangeClock;
  /** This process's part of the address's order-entry window (see ExchangeRateLimiter.shareOrderEntry). */
  readonly window: OrderEntryWindow;

  constructor(private readonly options: SocketEntryOptions) {
    this.clock = options.clock ?? new ExchangeClock();
    const { limiter, egress } = options;
    this.window = { egress, share: (part) => limiter.shareOrderEntry('bybit', egress, part) };
  }

  /** False while orders of this address go over REST: after a 10403, or while this process holds no part of the window. */
  open(): boolean {
    return Date.now() >= this.pausedUntil && this.options.limiter.orderEntryOpen('bybit', this.options.egress);
  }

  async create(order: SocketCreate): Promise<SocketOutcome> {
    const sent = await this.send('order.create', order.credentials, order.body, order.deadline);
    if (sent.kind === 'rest') return sent;
    if (sent.kind === 'lost') {
      const found = await order.lookup();
      return found ? { kind: 'placed', order: found } : { kind: 'rest', reason: `answer lost (${sent.reason}), not placed` };
    }
    if (sent.frame.retCode === 0) return { kind: 'placed', order: acknowledged(order.clientOrderId, sent.frame) };
    throw order.refusal(sent.frame);
  }

  /**
   * A cancel over the session (`order.cancel`, the body of /v5/order/cancel), under the same account slot and
   * address window as a create: done, or to be sent over REST (no session, the socket path paused, an answer
   * lost: a cancel sent twice only finds the order gone). A refusal is thrown as the REST answer's failure.
   */
  async cancel(order: SocketCancel): Promise<{ kind: 'cancelled' } | { kind: 'rest'; reason: string }> {
    const sent = await this.send('order.cancel', order.credentials, order.body, undefined);
    if (sent.kind === 'rest') return sent;
    if (sent.kind === 'lost') return { kind: 'rest', reason: `answer lost (${sent.reason})` };
    if (sent.frame.retCode === 0) return { kind: 'cancelled' };
    throw order.refusal(sent.frame);
  }

  /** One op over the account's session, its answer, or why it must go over REST; answers that mean "elsewhere" handled here. */
  private async send(op: 'order.create' | 'order.cancel', credentials: Credentials, body: Record<string, unknown>, deadline: number | undefined): Promise<Sent> {
    const { options } = this;
    if (Date.now() < this.pausedUntil) return { kind: 'rest', reason: 'address over its order-entry rate' };
    if (!options.limiter.orderEntryOpen('bybit', options.egress)) return { kind: 'rest', reason: "this process's part of the address's order-entry window is not settled yet" };
    if (!options.sessions.ready(credentials)) return { kind: 'rest', reason: 'no open session' };
    const release = await options.limiter.acquire({ exchange: 'bybit', egress: options.egress, apiKey: credentials.apiKey, write: 'order', deadline, channel: 'websocket' });
    let frame: TradeFrame;
    let answeredAt: number | undefined;
    // The session may have dropped while the order waited for its slot.
    const socket = options.sessions.ready(credentials);
    try {
      if (!socket) return { kind: 'rest', reason: 'session closed while waiting' };
      // Timestamps are the exchange's time (our clock may drift from it): a frame outside its window is refused.
      const header = { 'X-BAPI-TIMESTAMP': String(this.clock.now()), 'X-BAPI-RECV-WINDOW': String(TRADE_RECV_WINDOW_MS), Referer: options.brokerCode };
      frame = await socket.order(op, body, header, options.requestTimeoutMs ?? TRADE_RECV_WINDOW_MS);
      answeredAt = this.clock.answeredAt(frame.header?.Timenow, performance.now());
    } catch (error) {
      if (!(error instanceof TradeSocketLost)) throw error;
      if (error.reason === 'not_open') return { kind: 'rest', reason: 'session closed' };
      return { kind: 'lost', reason: error.reason };
    } finally {
      release(answeredAt);
    }
    if (SEND_OVER_REST.has(frame.retCode)) {
      if (frame.retCode === 10403) this.pausedUntil = Date.now() + ADDRESS_PAUSE_MS;
      if (REOPEN_SESSION.has(frame.retCode)) socket.close();
      return { kind: 'rest', reason: `socket answered ${frame.retCode}` };
    }
    return { kind: 'answered', frame };
  }
}

type Sent = { kind: 'answered'; frame: TradeFrame } | { kind: 'rest'; reason: string } | { kind: 'lost'; reason: string };

/** Bybit acknowledges with the ids only: the fill is read later, as after a REST create. */
function acknowledged(clientOrderId: string, frame: TradeFrame): PlacedOrder {
  const data = (frame.data ?? {}) as { orderId?: string; orderLinkId?: string };
  return { clientOrderId: data.orderLinkId || clientOrderId, exchangeOrderId: data.orderId || undefined, status: 'unknown', filledQty: 0, avgPrice: undefined, fee: undefined };
}
