import { createHmac } from 'node:crypto';
import { sameText } from '../auth';
import { findMarket } from '../markets';
import { SlidingWindow, type BitgetStreamLimits } from '../limits';
import type { PrivateSocket, StreamSession } from '../streams/private-socket';
import { BITGET_INST_TYPE } from './frames';

type Frame = Record<string, unknown>;

/** Bitget's login window: "timestamp ... will expire after 30 seconds" (websocket-intro), in seconds. */
export const BITGET_LOGIN_WINDOW_MS = 30_000;

/** Websocket error codes (ccxt 4.5.84 pro/bitget.js `exceptions.ws`, from Bitget's websocket error list). */
export const BitgetStreamError = {
  channelNotFound: [30001, "doesn't exist"],
  illegalRequest: [30002, 'Illegal request'],
  invalidOp: [30003, 'Invalid op'],
  needsLogin: [30004, 'User needs to log in'],
  loginFailed: [30005, 'Login failed'],
  tooMany: [30006, 'Request too many'],
  overLimit: [30007, 'Request over limit,connection close'],
  invalidKey: [30011, 'Invalid ACCESS_KEY'],
  invalidPassphrase: [30012, 'Invalid ACCESS_PASSPHRASE'],
  invalidTimestamp: [30013, 'Invalid ACCESS_TIMESTAMP'],
  timestampExpired: [30014, 'Request timestamp expired'],
  invalidSign: [30015, 'Invalid sign'],
  paramError: [30016, 'Param error'],
} as const satisfies Record<string, readonly [number, string]>;

type ErrorName = keyof typeof BitgetStreamError;

function isObject(value: unknown): value is Frame {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Timing rules of one connection, from the limits and the keepalive switch. */
export interface BitgetStreamTimes {
  pingTimeoutMs: number;
  subscribeTimeoutMs: number | undefined;
  maxLifetimeMs: number;
}

/**
 * One Bitget /v2/ws/private connection (bitget.com/api-doc/common/websocket-intro and
 * .../contract/websocket/private/*): string "ping" answered "pong", `login` once, `subscribe`/`unsubscribe`
 * of orders, orders-algo, positions and account (acknowledged one `{event, arg}` per arg, refused as
 * `{event:"error", arg?, code, msg}`), and Bitget's ceilings: 10 messages a second (past it: 30007 and the
 * connection is cut), 240 subscribe requests an hour and 1000 channels per connection, the keepalive cuts and
 * the 24-hour cut.
 */
export class BitgetPrivateSession implements StreamSession {
  private readonly messages = new SlidingWindow();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly ping: NodeJS.Timeout;
  private subscribed: NodeJS.Timeout | undefined;

  constructor(
    private readonly socket: PrivateSocket,
    private readonly limits: BitgetStreamLimits,
    times: BitgetStreamTimes,
  ) {
    this.ping = this.cutAfter(times.pingTimeoutMs);
    if (times.subscribeTimeoutMs !== undefined) this.subscribed = this.cutAfter(times.subscribeTimeoutMs);
    this.cutAfter(times.maxLifetimeMs);
  }

  /** A frame arrived: counted against 10 a second (past it the connection is cut); "ping" keeps it alive. */
  arrived(text: string): boolean {
    const rule = this.limits.messagesPerConnection;
    if (!this.messages.take('messages', rule.limit, rule.windowMs, this.socket.sandbox.now())) {
      this.error('overLimit');
      this.socket.close();
      return false;
    }
    if (text === 'ping') this.ping.refresh();
    return true;
  }

  closed(): void {
    for (const timer of this.timers) clearTimeout(timer);
  }

  handle(text: string): void {
    if (text === 'ping') return this.socket.answer('pong');
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      frame = undefined;
    }
    if (!isObject(frame)) return this.error('illegalRequest');
    if (frame.op === 'login') return this.login(frame.args);
    if (frame.op === 'subscribe') return this.subscribe(frame.args);
    if (frame.op === 'unsubscribe') return this.unsubscribe(frame.args);
    this.error('invalidOp');
  }

  /** args: [{apiKey, passphrase, timestamp (s), sign: base64(HMAC_SHA256(secret, timestamp + "GET" + "/user/verify"))}]. */
  private login(args: unknown): void {
    const { socket } = this;
    const { sandbox } = socket;
    if (socket.authenticated) return this.error('loginFailed');
    const request = Array.isArray(args) && args.length === 1 && isObject(args[0]) ? args[0] : undefined;
    const { apiKey, passphrase, timestamp, sign } = request ?? {};
    if (![apiKey, passphrase, timestamp, sign].every((value) => typeof value === 'string')) return this.error('paramError');
    const account = sandbox.byKey.get(apiKey as string);
    if (!account || account.exchange !== 'bitget') return this.error('invalidKey');
    if (!sameText(passphrase as string, account.passphrase)) return this.error('invalidPassphrase');
    if (!/^\d{1,10}$/.test(timestamp as string)) return this.error('invalidTimestamp');
    if (Math.abs(sandbox.now() - Number(timestamp) * 1000) > BITGET_LOGIN_WINDOW_MS) return this.error('timestampExpired');
    const expected = createHmac('sha256', account.secret).update(`${timestamp as string}GET/user/verify`).digest('base64');
    if (!sameText(expected, sign as string)) return this.error('invalidSign');
    if (account.ips.length && !account.ips.includes(socket.ip)) return this.error('loginFailed');
    if (sandbox.streamFaults.refused({ exchange: 'bitget', accountIds: [account.uid, account.apiKey] }, sandbox.now())) return socket.drop();
    socket.login(account);
    socket.answer({ event: 'login', code: 0 });
  }

  private subscribe(args: unknown): void {
    const rule = this.limits.subscribeRequestsPerConnection;
    if (!this.messages.take('subscribe', rule.limit, rule.windowMs, this.socket.sandbox.now())) return this.error('tooMany');
    if (!Array.isArray(args) || args.length === 0) return this.error('paramError');
    for (const raw of args) this.subscribeOne(raw);
  }

  private subscribeOne(raw: unknown): void {
    const { socket } = this;
    if (!isObject(raw)) return this.error('paramError');
    const arg = argOf(raw);
    if (!arg) return this.error('channelNotFound', raw, channelMissing(raw));
    if (!socket.authenticated) return this.error('needsLogin', arg.arg);
    if (!socket.has(arg.key) && socket.count() >= this.limits.channelsPerConnection) return this.error('tooMany', arg.arg);
    socket.subscribe({ channel: arg.channel, key: arg.key, ...(arg.symbol ? { symbol: arg.symbol } : {}) });
    if (this.subscribed) clearTimeout(this.subscribed);
    this.subscribed = undefined;
    socket.answer({ event: 'subscribe', arg: arg.arg });
  }

  private unsubscribe(args: unknown): void {
    if (!Array.isArray(args) || args.length === 0) return this.error('paramError');
    for (const raw of args) {
      const arg = isObject(raw) ? argOf(raw) : undefined;
      if (!arg) {
        this.error('channelNotFound', raw, isObject(raw) ? channelMissing(raw) : undefined);
        continue;
      }
      this.socket.unsubscribe(arg.key);
      this.socket.answer({ event: 'unsubscribe', arg: arg.arg });
    }
  }

  private error(name: ErrorName, arg?: unknown, msg?: string): void {
    const [code, text] = BitgetStreamError[name];
    this.socket.answer({ event: 'error', ...(arg === undefined ? {} : { arg }), code, msg: msg ?? text });
  }

  private cutAfter(ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => this.socket.drop(), ms);
    timer.unref();
    this.timers.push(timer);
    return timer;
  }
}

/** A subscription's arg, normalised; undefined when the channel, product type or scope is not one Bitget serves here. */
function argOf(raw: Frame): { channel: string; key: string; arg: Frame; symbol?: string } | undefined {
  const { instType, channel, instId, coin } = raw;
  if (instType !== BITGET_INST_TYPE || typeof channel !== 'string') return undefined;
  if (channel === 'account') {
    if (coin !== 'default' || instId !== undefined) return undefined;
    const arg = { instType, channel, coin };
    return { channel, key: JSON.stringify(arg), arg };
  }
  const bySymbol = channel === 'orders' || channel === 'orders-algo';
  if (!bySymbol && channel !== 'positions') return undefined;
  if (typeof instId !== 'string' || coin !== undefined) return undefined;
  if (instId !== 'default' && !(bySymbol && findMarket(instId))) return undefined;
  const arg = { instType, channel, instId };
  return { channel, key: JSON.stringify(arg), arg, ...(instId === 'default' ? {} : { symbol: instId }) };
}

function channelMissing(raw: Frame): string {
  const scope = raw.coin !== undefined ? `coin:${String(raw.coin)}` : `instId:${String(raw.instId)}`;
  return `instType:${String(raw.instType)},channel:${String(raw.channel)},${scope} doesn't exist`;
}
