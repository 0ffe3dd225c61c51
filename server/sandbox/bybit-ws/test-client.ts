import { createHmac } from 'node:crypto';
import type { Credentials } from '../control';
import { RawSocket } from '../ws-test-client';

export type Frame = Record<string, unknown> & { retCode?: number; retMsg?: string; op?: string; reqId?: string };

/** A bare /v5/trade client for sandbox tests: every frame it receives, in order, and a way to wait for the next ones. */
export class RawTradeSocket extends RawSocket<Frame> {
  static open(url: string, localAddress?: string): Promise<RawTradeSocket> {
    return RawSocket.connect(url, (ws) => new RawTradeSocket(ws, (text) => JSON.parse(text) as Frame), localAddress);
  }

  async auth(creds: Pick<Credentials, 'apiKey' | 'secret'>, expires = Date.now() + 10_000): Promise<Frame> {
    return this.ask({ op: 'auth', args: [creds.apiKey, expires, signTradeAuth(creds.secret, expires)] });
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
