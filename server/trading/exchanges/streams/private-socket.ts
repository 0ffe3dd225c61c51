import { WebSocket } from 'ws';
import type { AccountEvent } from './account-events';

export interface PrivateSocketOptions {
  /** The exchange's private stream URL (the sandbox's under its base URL). */
  url: string;
  /** Bind to this local address (a host with several egress addresses). */
  localAddress?: string | undefined;
  /** Connect, log in and subscribe must all be done within this. */
  connectTimeoutMs: number;
  pingIntervalMs: number;
}

/** How one exchange speaks on its private stream. */
export interface PrivateProtocol {
  /** What is sent as a ping (text). */
  ping: string;
  /** Whether a received frame (parsed JSON, or the raw text when it is not JSON) is the pong. */
  isPong(frame: unknown): boolean;
  /** Logs in and subscribes (throws when the exchange refuses). */
  handshake(socket: PrivateSocket): Promise<void>;
  /** The events of one push frame ([] for anything else). */
  events(frame: unknown): AccountEvent[];
}

interface Waiter {
  matches: (frame: unknown) => boolean;
  resolve: (frame: unknown) => void;
}

/** The stream closed or never answered during the handshake. */
export class PrivateStreamLost extends Error {
  constructor(reason: string) {
    super(`private stream: ${reason}`);
    this.name = 'PrivateStreamLost';
  }
}

/**
 * One account's private stream: the handshake (login, subscriptions) matched to its answers, a ping every
 * `pingIntervalMs` (a socket whose previous ping went unanswered is cut: a dead peer), and every push frame
 * handed on as events. The events of a frame are delivered in the order the exchange sent them.
 */
export class PrivateSocket {
  private waiters: Waiter[] = [];
  private awaitingPong = false;
  private pinger: NodeJS.Timeout | undefined;
  private closeListener: (() => void) | undefined;
  private gone = false;

  private constructor(
    private readonly ws: WebSocket,
    private readonly protocol: PrivateProtocol,
    private readonly onEvents: (events: AccountEvent[]) => void,
  ) {
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.receive(data.toString());
    });
    ws.on('close', () => this.closed());
    ws.on('error', () => ws.terminate());
  }

  static open(options: PrivateSocketOptions, protocol: PrivateProtocol, onEvents: (events: AccountEvent[]) => void): Promise<PrivateSocket> {
    const ws = new WebSocket(options.url, {
      perMessageDeflate: false,
      maxPayload: 4 * 1024 * 1024,
      handshakeTimeout: options.connectTimeoutMs,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    const socket = new PrivateSocket(ws, protocol, onEvents);
    return new Promise<PrivateSocket>((resolve, reject) => {
      const timer = setTimeout(() => fail(new PrivateStreamLost('no answer in time')), options.connectTimeoutMs);
      const fail = (error: unknown) => {
        clearTimeout(timer);
        ws.terminate();
        reject(error);
      };
      ws.once('unexpected-response', (_request, response) => fail(new PrivateStreamLost(`HTTP ${response.statusCode ?? 0}`)));
      ws.once('error', fail);
      ws.once('open', () => {
        protocol.handshake(socket).then(() => {
          clearTimeout(timer);
          ws.off('error', fail);
          socket.startPinging(options.pingIntervalMs);
          resolve(socket);
        }, fail);
      });
    });
  }

  get isOpen(): boolean {
    return !this.gone && this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends a frame and resolves with the first received frame that `matches` (handshake only). */
  request(frame: unknown, matches: (frame: unknown) => boolean): Promise<unknown> {
    if (!this.isOpen) return Promise.reject(new PrivateStreamLost('not open'));
    const answer = this.expect(matches);
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
    return answer;
  }

  /** Resolves with the first frame received from now on that `matches` (handshake only). */
  expect(matches: (frame: unknown) => boolean): Promise<unknown> {
    return new Promise((resolve) => this.waiters.push({ matches, resolve }));
  }

  send(frame: unknown): void {
    if (this.isOpen) this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Called once when the socket closes. */
  onClose(listener: () => void): void {
    this.closeListener = listener;
  }

  close(): void {
    this.ws.terminate();
  }

  private receive(raw: string): void {
    let frame: unknown = raw;
    try {
      frame = JSON.parse(raw);
    } catch {
      // Bitget's pong is the bare text "pong".
    }
    if (this.protocol.isPong(frame)) {
      this.awaitingPong = false;
      return;
    }
    const waiter = this.waiters.find((w) => w.matches(frame));
    if (waiter) {
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve(frame);
      return;
    }
    const events = this.protocol.events(frame);
    if (events.length > 0) this.onEvents(events);
  }

  private startPinging(intervalMs: number): void {
    this.pinger = setInterval(() => {
      if (this.awaitingPong) {
        this.ws.terminate();
        return;
      }
      this.awaitingPong = true;
      this.ws.send(this.protocol.ping);
    }, intervalMs);
    this.pinger.unref();
  }

  private closed(): void {
    this.gone = true;
    clearInterval(this.pinger);
    this.waiters = [];
    const listener = this.closeListener;
    this.closeListener = undefined;
    listener?.();
  }
}
