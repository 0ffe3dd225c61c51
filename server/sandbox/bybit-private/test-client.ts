import type { Credentials } from '../control';
import { signTradeAuth } from '../bybit-ws/test-client';
import { RawSocket } from '../ws-test-client';

export type PrivateFrame = Record<string, unknown> & { success?: boolean; ret_msg?: string; op?: string; topic?: string; data?: Array<Record<string, unknown>> };

/** A bare Bybit /v5/private client for sandbox tests: answers and pushes in the order they came. */
export class RawPrivateSocket extends RawSocket<PrivateFrame> {
  static open(url: string, localAddress?: string): Promise<RawPrivateSocket> {
    return RawSocket.connect(url, (ws) => new RawPrivateSocket(ws, (text) => JSON.parse(text) as PrivateFrame), localAddress);
  }

  /** `{op:"auth", args:[apiKey, expires, hex(HMAC_SHA256(secret, "GET/realtime" + expires))]}` and its answer. */
  auth(creds: Pick<Credentials, 'apiKey' | 'secret'>, expires: number): Promise<PrivateFrame> {
    return this.ask({ op: 'auth', args: [creds.apiKey, expires, signTradeAuth(creds.secret, expires)] });
  }

  subscribe(topics: string[], reqId?: string): Promise<PrivateFrame> {
    return this.ask({ ...(reqId ? { req_id: reqId } : {}), op: 'subscribe', args: topics });
  }

  /** Pushes received so far on `topic`, in order. */
  pushes(topic: string): PrivateFrame[] {
    return this.frames.filter((frame) => frame.topic === topic);
  }

  /** Every push received so far as [topic, first data item], in order. */
  timeline(): Array<[string, Record<string, unknown>]> {
    return this.frames.filter((frame) => typeof frame.topic === 'string').map((frame) => [String(frame.topic), frame.data?.[0] ?? {}]);
  }
}
