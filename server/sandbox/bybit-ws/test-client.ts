import { createHmac } from 'node:crypto';
import { WebSocket } from 'ws';
import type { Credentials } from '../control';

export type Frame = Record<string, unknown> & { retCode?: number; retMsg?: string; op?: string; reqId?: string };

/** A bare /v5/trade client for sandbox tests: every frame it receives, in order, and a way to wait for the next ones. */
export class RawTradeSocket {
  readonly frames: Frame[] = [];
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      this.wake();
    });
    ws.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static open(url: string, localAddress?: string): Promise<RawTradeSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, ...(localAddress ? { localAddress } : {}) });
      const socket = new RawTradeSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
      ws.once('error', reject);
    });
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Sends and waits for the answer that follows (frames are answered in order without latency faults). */
  async ask(frame: unknown): Promise<Frame> {
    const before = this.frames.length;
    this.send(frame);
    await this.until(() => this.frames.length > before);
    return this.frames[before]!;
  }

  async until(ready: () => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      if (Date.now() > deadline) throw new Error('no answer in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async auth(creds: Pick<Credentials, 'apiKey' | 'secret'>, expires = Date.now() + 10_000): Promise<Frame> {
    return this.ask({ op: 'auth', args: [creds.apiKey, expires, signTradeAuth(creds.secret, expires)] });
  }

  close(): void {
    this.ws.terminate();
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }
}

/** hex(HMAC_SHA256(secret, "GET/realtime" + expires)) (docs/v5/websocket/wss-authentication.mdx). */
export function signTradeAuth(secret: string, expires: number): string {
  return createHmac('sha256', secret).update(`GET/realtime${expires}`).digest('hex');
}

/** An order op frame with the documented header. */
export function orderFrame(op: string, args: Record<string, unknown>, reqId?: string, timestamp = Date.now()): Record<string, unknown> {
  return { ...(reqId ? { reqId } : {}), header: { 'X-BAPI-TIMESTAMP': String(timestamp), 'X-BAPI-RECV-WINDOW': '5000' }, op, args: [args] };
}
