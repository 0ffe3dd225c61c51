import { createHmac } from 'node:crypto';
import type { Credentials } from '../control';
import { RawSocket } from '../ws-test-client';

export type BitgetFrame = Record<string, unknown> & { event?: string; code?: number; msg?: string; action?: string; arg?: Record<string, string>; data?: Array<Record<string, unknown>> };

/** base64(HMAC_SHA256(secret, timestamp + "GET" + "/user/verify")), timestamp in seconds (websocket-intro "Login"). */
export function signBitgetLogin(secret: string, timestamp: string): string {
  return createHmac('sha256', secret).update(`${timestamp}GET/user/verify`).digest('base64');
}

/** A login frame for `creds` at `seconds` (Unix seconds). */
export function loginFrame(creds: Pick<Credentials, 'apiKey' | 'secret' | 'passphrase'>, seconds: number): Record<string, unknown> {
  const timestamp = String(seconds);
  return { op: 'login', args: [{ apiKey: creds.apiKey, passphrase: creds.passphrase, timestamp, sign: signBitgetLogin(creds.secret, timestamp) }] };
}

/** The arg of a contract private channel (account takes `coin`, the others `instId`). */
export function channelArg(channel: string, scope = 'default'): Record<string, string> {
  return channel === 'account' ? { instType: 'USDT-FUTURES', channel, coin: scope } : { instType: 'USDT-FUTURES', channel, instId: scope };
}

/** A bare Bitget /v2/ws/private client for sandbox tests; "pong" arrives as the string itself. */
export class RawBitgetSocket extends RawSocket<BitgetFrame | string> {
  static open(url: string, localAddress?: string): Promise<RawBitgetSocket> {
    return RawSocket.connect(url, (ws) => new RawBitgetSocket(ws, (text) => (text === 'pong' ? text : (JSON.parse(text) as BitgetFrame))), localAddress);
  }

  async login(creds: Pick<Credentials, 'apiKey' | 'secret' | 'passphrase'>, seconds: number): Promise<BitgetFrame> {
    return (await this.ask(loginFrame(creds, seconds))) as BitgetFrame;
  }

  /** Subscribes to the channels and waits for one answer per arg. */
  async subscribe(channels: string[]): Promise<BitgetFrame[]> {
    const before = this.frames.length;
    this.send({ op: 'subscribe', args: channels.map((channel) => channelArg(channel)) });
    await this.until(() => this.frames.length >= before + channels.length);
    return this.frames.slice(before, before + channels.length) as BitgetFrame[];
  }

  /** Pushes received so far on `channel`, in order. */
  pushes(channel: string): BitgetFrame[] {
    return this.frames.filter((frame): frame is BitgetFrame => typeof frame !== 'string' && frame.action !== undefined && frame.arg?.channel === channel);
  }

  /** Every push so far as [channel, data], in order. */
  timeline(): Array<[string, Array<Record<string, unknown>>]> {
    return this.frames
      .filter((frame): frame is BitgetFrame => typeof frame !== 'string' && frame.action !== undefined)
      .map((frame) => [String(frame.arg?.channel), frame.data ?? []]);
  }
}
