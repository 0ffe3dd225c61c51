import { createHmac } from 'node:crypto';
import { WebSocket } from 'ws';
import type { ExchangeClock } from './exchange-clock';

/** One answer frame of Bybit's /v5/trade (docs/v5/websocket/trade/guideline.mdx). */
export interface TradeFrame {
  reqId?: string;
  retCode: number;
  retMsg: string;
  op: string;
  data?: unknown;
  header?: Record<string, string>;
  connId?: string;
}

export interface TradeSocketOptions {
  /** wss://stream.bybit.com/v5/trade, or the sandbox's ws://.../v5/trade. */
  url: string;
  apiKey: string;
  secret: string;
  /** The local address to connect from (the egress address), when the host has several. */
  localAddress?: string | undefined;
  /** Bybit: "send the ping heartbeat packet every 20 seconds" (docs/v5/websocket/wss-authentication.mdx). */
  pingIntervalMs: number;
  /** Connect and auth must both be done within this. */
  connectTimeoutMs: number;
  /** Learns the exchange's time from each pong. */
  clock?: ExchangeClock | undefined;
}

/** Why a request got no answer: the socket was not open, closed before the answer, or the answer did not come in time. */
export class TradeSocketLost extends Error {
  constructor(readonly reason: 'not_open' | 'closed' | 'timeout') {
    super(`Bybit trade socket: ${reason === 'not_open' ? 'not open' : reason === 'closed' ? 'closed before the answer' : 'no answer in time'}`);
    this.name = 'TradeSocketLost';
  }
}

/** Bybit refused the socket's auth (a bad key or signature): the frame says why. */
export class TradeAuthRefused extends Error {
  constructor(readonly frame: TradeFrame) {
    super(`Bybit refused the trade socket's auth (${frame.retCode} ${frame.retMsg})`);
    this.name = 'TradeAuthRefused';
  }
}

interface Pending {
  resolve: (frame: TradeFrame) => void;
  reject: (error: TradeSocketLost) => void;
  timer: NodeJS.Timeout;
}

const AUTH_REQ_ID = 'auth';

/** hex(HMAC_SHA256(secret, "GET/realtime" + expires)) (docs/v5/websocket/wss-authentication.mdx). */
export function signSocketAuth(secret: string, expires: number): string {
  return createHmac('sha256', secret).update(`GET/realtime${expires}`).digest('hex');
}

/**
 * One authenticated /v5/trade connection of one account: requests matched to answers by reqId, each
 * with its own timeout; a ping every `pingIntervalMs`, and a socket whose previous ping went unanswered
 * is cut (a dead peer). Kept small: a few fields, no buffers of its own, one timer.
 */
export class TradeSocket {
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;
  private awaitingPong = false;
  private pinger: NodeJS.Timeout | undefined;
  private closeListener: (() => void) | undefined;

  private constructor(
    private readonly ws: WebSocket,
    private readonly clock: ExchangeClock | undefined,
  ) {
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.receive(data.toString());
    });
    ws.on('close', () => this.closed());
    ws.on('error', () => ws.terminate());
  }

  /** Connects and authenticates; rejects with TradeAuthRefused, a TradeSocketLost, or the connection error. */
  static open(options: TradeSocketOptions): Promise<TradeSocket> {
    const ws = new WebSocket(options.url, {
      perMessageDeflate: false,
      // Answers are a few hundred bytes: nothing the exchange sends on this socket needs more.
      maxPayload: 1024 * 1024,
      handshakeTimeout: options.connectTimeoutMs,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    const socket = new TradeSocket(ws, options.clock);
    return new Promise<TradeSocket>((resolve, reject) => {
      const fail = (error: unknown) => {
        ws.terminate();
        reject(error);
      };
      ws.once('unexpected-response', (_request, response) => fail(new Error(`Bybit refused the trade socket: HTTP ${response.statusCode ?? 0}`)));
      ws.once('error', fail);
      ws.once('open', () => {
        // Bybit checks `expires` against its own clock (wss-authentication.mdx).
        const expires = (options.clock?.now() ?? Date.now()) + options.connectTimeoutMs;
        socket
          .request({ reqId: AUTH_REQ_ID, op: 'auth', args: [options.apiKey, expires, signSocketAuth(options.secret, expires)] }, options.connectTimeoutMs)
          .then((frame) => {
            if (frame.retCode !== 0) return fail(new TradeAuthRefused(frame));
            ws.off('error', fail);
            socket.startPinging(options.pingIntervalMs);
            resolve(socket);
          }, fail);
      });
    });
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends an order op (args[0] is the REST body) with the documented header; answers its frame. */
  order(op: 'order.create' | 'order.amend' | 'order.cancel', body: Record<string, unknown>, header: Record<string, string>, timeoutMs: number): Promise<TradeFrame> {
    this.sequence += 1;
    return this.request({ reqId: this.sequence.toString(36), header, op, args: [body] }, timeoutMs);
  }

  /** Called once when the socket closes (after every pending request was rejected). */
  onClose(listener: () => void): void {
    this.closeListener = listener;
  }

  close(): void {
    this.ws.terminate();
  }

  private request(frame: { reqId: string } & Record<string, unknown>, timeoutMs: number): Promise<TradeFrame> {
    if (!this.isOpen) return Promise.reject(new TradeSocketLost('not_open'));
    return new Promise<TradeFrame>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(frame.reqId);
        reject(new TradeSocketLost('timeout'));
      }, timeoutMs);
      this.pending.set(frame.reqId, { resolve, reject, timer });
      this.ws.send(JSON.stringify(frame));
    });
  }

  private receive(text: string): void {
    let frame: TradeFrame;
    try {
      frame = JSON.parse(text) as TradeFrame;
    } catch {
      return;
    }
    if (frame.op === 'pong') {
      this.awaitingPong = false;
      this.clock?.heard(Array.isArray(frame.data) ? frame.data[0] : undefined, performance.now());
      return;
    }
    const pending = frame.reqId === undefined ? undefined : this.pending.get(frame.reqId);
    if (!pending || frame.reqId === undefined) return;
    this.pending.delete(frame.reqId);
    clearTimeout(pending.timer);
    pending.resolve(frame);
  }

  private startPinging(intervalMs: number): void {
    this.pinger = setInterval(() => {
      if (this.awaitingPong) {
        this.ws.terminate();
        return;
      }
      this.awaitingPong = true;
      this.ws.send('{"op":"ping"}');
    }, intervalMs);
    this.pinger.unref();
  }

  private closed(): void {
    clearInterval(this.pinger);
    for (const [reqId, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(reqId);
      pending.reject(new TradeSocketLost('closed'));
    }
    const listener = this.closeListener;
    this.closeListener = undefined;
    listener?.();
  }
}
