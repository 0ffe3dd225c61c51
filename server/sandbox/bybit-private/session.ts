import { createHmac } from 'node:crypto';
import { checkBybitAccess, sameText } from '../auth';
import { ApiError } from '../http-types';
import type { StreamSession } from '../streams/private-socket';
import type { PrivateSocket } from '../streams/private-socket';

type Frame = Record<string, unknown>;

/** Topics of docs/v5/websocket/private/{order,execution,position,wallet}.mdx and the categories each has. */
const topicCategories: Record<string, readonly string[]> = {
  order: ['spot', 'linear', 'inverse', 'option'],
  execution: ['spot', 'linear', 'inverse', 'option'],
  position: ['linear', 'inverse', 'option'],
  wallet: [],
};

/** Texts of refusals Bybit's pages do not give (README "Private streams": unverified). */
export const privateRefusals = {
  params: 'Params Error',
  invalidKey: 'API key is invalid.',
  invalidSign: 'Invalid sign',
  repeatAuth: 'Repeat auth',
  invalidOp: 'error:invalid op',
  mixedTopics: 'error:All-In-One topic and Categorised topic cannot be in the same subscription request',
  notFound: (topic: string) => `error:handler not found,topic:${topic}`,
  already: (topic: string) => `error:already subscribed,topic:${topic}`,
  needsAuth: (topic: string) => `error:topic:${topic} needs auth first`,
} as const;

function isObject(value: unknown): value is Frame {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The channel a topic's pushes come on: linear and all-in-one topics get this sandbox's pushes, other categories none. */
function channelOf(topic: string): string | undefined {
  const [family = '', category, extra] = topic.split('.');
  const categories = topicCategories[family];
  if (!categories || extra !== undefined) return undefined;
  if (category === undefined) return family;
  if (!categories.includes(category)) return undefined;
  return category === 'linear' ? family : topic;
}

/**
 * One Bybit /v5/private connection (docs/v5/websocket/wss-authentication.mdx, docs/v5/websocket/private/*.mdx):
 * `auth` once with one key, `ping`, `subscribe`/`unsubscribe` of the private topics. Answers are
 * `{success, ret_msg, op, conn_id}` (`req_id` echoed when sent); the pong is `{op:"pong", args:[time], conn_id}`.
 * Cut after `idleMs` without a frame either way (`max_active_time`, default 10 minutes).
 */
export class BybitPrivateSession implements StreamSession {
  private readonly idle: NodeJS.Timeout;

  constructor(
    private readonly socket: PrivateSocket,
    private readonly connId: string,
    idleMs: number,
  ) {
    this.idle = setTimeout(() => socket.drop(), idleMs);
    this.idle.unref();
    socket.onWrite = () => this.idle.refresh();
  }

  /** A frame arrived: it counts as traffic for the idle cut. */
  touched(): boolean {
    this.idle.refresh();
    return true;
  }

  closed(): void {
    clearTimeout(this.idle);
  }

  handle(text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      frame = undefined;
    }
    if (!isObject(frame)) return this.reply(undefined, '', false, privateRefusals.invalidOp);
    const op = typeof frame.op === 'string' ? frame.op : '';
    const reqId = frame.req_id;
    if (op === 'ping') return this.socket.answer({ ...this.reqIdOf(reqId), op: 'pong', args: [String(this.socket.sandbox.now())], conn_id: this.connId });
    if (op === 'auth') return this.auth(reqId, frame.args);
    if (op === 'subscribe') return this.subscribe(reqId, frame.args);
    if (op === 'unsubscribe') return this.unsubscribe(reqId, frame.args);
    this.reply(reqId, op, false, privateRefusals.invalidOp);
  }

  /** args: [apiKey, expires (ms, later than now), hex(HMAC_SHA256(secret, "GET/realtime" + expires))]. */
  private auth(reqId: unknown, args: unknown): void {
    const { socket } = this;
    const { sandbox } = socket;
    if (socket.authenticated) return this.reply(reqId, 'auth', false, privateRefusals.repeatAuth);
    const valid = Array.isArray(args) && args.length === 3 && typeof args[0] === 'string' && typeof args[2] === 'string' && ['string', 'number'].includes(typeof args[1]);
    if (!valid || !/^\d+$/.test(String(args[1]))) return this.reply(reqId, 'auth', false, privateRefusals.params);
    const [key, expires, signature] = args as [string, string | number, string];
    const account = sandbox.byKey.get(key);
    if (!account || account.exchange !== 'bybit') return this.reply(reqId, 'auth', false, privateRefusals.invalidKey);
    if (Number(expires) <= sandbox.now()) return this.reply(reqId, 'auth', false, privateRefusals.params);
    const expected = createHmac('sha256', account.secret).update(`GET/realtime${String(expires)}`).digest('hex');
    if (!sameText(expected, signature)) return this.reply(reqId, 'auth', false, privateRefusals.invalidSign);
    try {
      checkBybitAccess(account, socket.ip, 'read');
    } catch (error) {
      return this.reply(reqId, 'auth', false, error instanceof ApiError ? error.message : privateRefusals.params);
    }
    if (sandbox.streamFaults.refused({ exchange: 'bybit', accountIds: [account.uid, account.apiKey] }, sandbox.now())) return socket.drop();
    socket.login(account);
    this.reply(reqId, 'auth', true, '');
  }

  /** A request is taken whole or refused whole; the all-in-one and categorised forms never share one. */
  private subscribe(reqId: unknown, args: unknown): void {
    const topics = this.topicsOf(args);
    if (!topics) return this.reply(reqId, 'subscribe', false, privateRefusals.params);
    const unknown = topics.find((topic) => channelOf(topic) === undefined);
    if (unknown !== undefined) return this.reply(reqId, 'subscribe', false, privateRefusals.notFound(unknown));
    if (!this.socket.authenticated) return this.reply(reqId, 'subscribe', false, privateRefusals.needsAuth(topics[0] ?? ''));
    const categorised = topics.filter((topic) => topic.includes('.'));
    if (categorised.length > 0 && categorised.length < topics.length) return this.reply(reqId, 'subscribe', false, privateRefusals.mixedTopics);
    const taken = topics.find((topic) => this.socket.has(topic));
    if (taken !== undefined) return this.reply(reqId, 'subscribe', false, privateRefusals.already(taken));
    for (const topic of topics) this.socket.subscribe({ channel: channelOf(topic) ?? topic, key: topic });
    this.reply(reqId, 'subscribe', true, '');
  }

  private unsubscribe(reqId: unknown, args: unknown): void {
    const topics = this.topicsOf(args);
    if (!topics) return this.reply(reqId, 'unsubscribe', false, privateRefusals.params);
    for (const topic of topics) this.socket.unsubscribe(topic);
    this.reply(reqId, 'unsubscribe', true, '');
  }

  private topicsOf(args: unknown): string[] | undefined {
    if (!Array.isArray(args) || args.length === 0 || !args.every((topic) => typeof topic === 'string')) return undefined;
    return [...new Set(args as string[])];
  }

  private reqIdOf(reqId: unknown): Frame {
    return typeof reqId === 'string' || typeof reqId === 'number' ? { req_id: reqId } : {};
  }

  private reply(reqId: unknown, op: string, success: boolean, retMsg: string): void {
    this.socket.answer({ ...this.reqIdOf(reqId), success, ret_msg: retMsg, op, conn_id: this.connId });
  }
}
