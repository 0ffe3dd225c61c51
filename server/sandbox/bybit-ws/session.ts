import { createHmac } from 'node:crypto';
import { checkBybitAccess, checkBybitTimestamp, sameText } from '../auth';
import { bybitRoutes } from '../bybit/routes';
import type { Holds } from '../holds';
import { ApiError, type ApiRoute, type RequestContext } from '../http-types';
import { tradeSocketLimits } from '../limits';
import { RateLimited, refusalOf, runAuthenticated } from '../pipeline';
import { bump, type Sandbox } from '../sandbox';
import type { Account } from '../types';
import { answerHeader, SERVICE_RESTARTING_TEXT, TradeCode, tradeOps, type TradeAnswer } from './frames';

type Frame = Record<string, unknown>;

const REQ_ID_MAX = 36;

function isObject(value: unknown): value is Frame {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One Bybit /v5/trade connection (docs/v5/websocket/trade/guideline.mdx): `auth` once with one key,
 * `ping`, and `order.create` / `order.amend` / `order.cancel` whose args[0] is the REST body, run through
 * the REST route's own handler after the account's shared per-endpoint ceiling.
 */
export class TradeSession {
  account: Account | undefined;
  /**
   * The trade service behind this connection is restarting (control, or a 10019 fault): every later order op
   * is answered 10019 and the client must open a new connection (guideline.mdx retCode 10019).
   */
  restarting = false;
  private readonly reqIds = new Set<string>();
  private readonly gone = new Set<() => void>();

  constructor(
    private readonly sandbox: Sandbox,
    private readonly holds: Holds,
    readonly ip: string,
    readonly connId: string,
  ) {}

  /** The connection closed: answers held back (faults) are dropped. */
  closed(): void {
    for (const release of [...this.gone]) release();
    this.gone.clear();
  }

  /** Waits like a held answer, cut short when the connection closes. */
  private hold(ms: number | undefined): Promise<boolean> {
    return this.holds.wait(ms, (release) => this.gone.add(release));
  }

  /** The answer to one text frame (`arrivedAt`: when it reached the exchange); undefined when none must come (a held "timeout" fault). */
  async handle(text: string, arrivedAt = this.sandbox.now()): Promise<TradeAnswer | undefined> {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      frame = undefined;
    }
    if (!isObject(frame)) return this.answer(undefined, '', TradeCode.paramError, 'params error: the frame is not a JSON object');
    const op = typeof frame.op === 'string' ? frame.op : '';
    const reqId = typeof frame.reqId === 'string' ? frame.reqId : undefined;
    if (op === 'ping') return { ...this.answer(reqId, 'pong', TradeCode.ok, 'OK'), data: [String(this.sandbox.now())] };
    if (op === 'auth') return this.auth(reqId, frame.args);
    const routeKey = tradeOps[op];
    if (!routeKey) return this.answer(reqId, op, TradeCode.opNotFound, `op type is not found: ${op}`);
    return this.order(frame, op, routeKey, arrivedAt);
  }

  /** args: [apiKey, expires (ms, later than now), hex(HMAC_SHA256(secret, "GET/realtime" + expires))] (docs/v5/websocket/wss-authentication.mdx). */
  private auth(reqId: string | undefined, args: unknown): TradeAnswer {
    if (this.account) return this.answer(reqId, 'auth', TradeCode.repeatAuth, 'Repeat auth');
    if (!Array.isArray(args) || args.length !== 3 || typeof args[0] !== 'string' || typeof args[2] !== 'string' || !Number.isFinite(Number(args[1]))) {
      return this.answer(reqId, 'auth', TradeCode.paramError, 'params error: args must be [api key, expires, signature]');
    }
    const [key, expires, signature] = args as [string, number | string, string];
    const account = this.sandbox.byKey.get(key);
    if (!account || account.exchange !== 'bybit') return this.answer(reqId, 'auth', TradeCode.invalidKey, 'API key is invalid.');
    if (Number(expires) <= this.sandbox.now()) return this.answer(reqId, 'auth', TradeCode.paramError, 'params error: expires must be later than the server time');
    const expected = createHmac('sha256', account.secret).update(`GET/realtime${String(expires)}`).digest('hex');
    if (!sameText(expected, signature)) return this.answer(reqId, 'auth', TradeCode.invalidSign, 'Invalid sign');
    this.account = account;
    return this.answer(reqId, 'auth', TradeCode.ok, 'OK');
  }

  /** `arrivedAt`: when the frame reached the exchange (read off the socket, plus the sandbox's one-way latency). */
  private async order(frame: Frame, op: string, routeKey: string, arrivedAt: number): Promise<TradeAnswer | undefined> {
    const { sandbox } = this;
    const reqId = frame.reqId;
    if (reqId !== undefined && (typeof reqId !== 'string' || reqId.length === 0 || reqId.length > REQ_ID_MAX)) {
      return this.answer(undefined, op, TradeCode.paramError, `params error: reqId must be a string of 1-${REQ_ID_MAX} characters`);
    }
    if (reqId !== undefined && this.reqIds.has(reqId)) return this.answer(reqId, op, TradeCode.duplicateReqId, 'reqId is duplicated');
    if (reqId !== undefined) this.reqIds.add(reqId);
    const account = this.account;
    if (!account) return this.answer(reqId, op, TradeCode.invalidKey, 'Request not authorized: send auth first');
    if (this.restarting) return this.answer(reqId, op, TradeCode.serviceRestarting, SERVICE_RESTARTING_TEXT);
    bump(sandbox.counters.requestsByIp, this.ip);
    const perIp = tradeSocketLimits.ordersPerIp;
    if (!sandbox.tradeOrderWindow.take(this.ip, perIp.limit, perIp.windowMs, sandbox.now())) {
      bump(sandbox.counters.rejectedByIp, this.ip);
      return this.answer(reqId, op, TradeCode.ipLimited, 'Too many requests: exceed IP rate limit (3000 per second)');
    }
    const header = isObject(frame.header) ? frame.header : {};
    const args = frame.args;
    const body = Array.isArray(args) && args.length === 1 && isObject(args[0]) ? args[0] : undefined;
    if (!body) return this.answer(reqId, op, TradeCode.paramError, 'params error: args must hold exactly one request');
    if (body.category !== 'linear') return this.answer(reqId, op, TradeCode.opNotFound, 'category is not correct/supported');

    const decision = sandbox.faults.decide({ exchange: 'bybit', method: 'WS', route: routeKey.slice('POST '.length), accountIds: [account.uid, account.apiKey] });
    if (decision.latencyMs > 0 && !(await this.hold(decision.latencyMs))) return undefined;
    const outcome = decision.outcome;
    if (outcome.kind === 'serverError') return this.answer(reqId, op, TradeCode.serverError, 'internal server error');
    if (outcome.kind === 'rateLimit') {
      sandbox.counters.forcedRateLimits += 1;
      return this.answer(reqId, op, TradeCode.accountLimited, 'Too many visits!');
    }
    if (outcome.kind === 'reject') {
      if (Number(outcome.code) === TradeCode.serviceRestarting) this.restarting = true;
      return this.answer(reqId, op, Number(outcome.code), outcome.msg);
    }

    const limits: Record<string, string> = {};
    let answer: TradeAnswer;
    try {
      checkBybitTimestamp(String(header['X-BAPI-TIMESTAMP'] ?? ''), String(header['X-BAPI-RECV-WINDOW'] ?? '5000'), sandbox.now());
      checkBybitAccess(account, this.ip, 'trade');
      const context = { ...this.context(routeKey), receivedAt: arrivedAt + decision.latencyMs, orderHiddenMs: decision.hideOrderMs };
      const data = await runAuthenticated(sandbox, context, account, bybitRoutes[routeKey] as ApiRoute, routeKey, limits, () => body);
      answer = { ...this.answer(reqId, op, TradeCode.ok, 'OK'), data };
    } catch (error) {
      const refusal = error instanceof RateLimited ? new ApiError(String(TradeCode.accountLimited), 'Too many visits!') : refusalOf('bybit', error);
      answer = this.answer(reqId, op, Number(refusal.code), refusal.message);
    }
    answer.header = answerHeader(limits, sandbox.now());
    if (outcome.kind === 'timeout') return (await this.hold(outcome.delayMs)) ? answer : undefined;
    return answer;
  }

  private context(routeKey: string): RequestContext {
    return { sandbox: this.sandbox, exchange: 'bybit', method: 'POST', path: routeKey.slice('POST '.length), rawQuery: '', rawBody: '', query: {}, body: {}, ip: this.ip, headers: {} };
  }

  private answer(reqId: unknown, op: string, retCode: number, retMsg: string): TradeAnswer {
    const base: TradeAnswer = { retCode, retMsg, op, connId: this.connId };
    if (op.startsWith('order.')) Object.assign(base, { data: {}, retExtInfo: {} });
    return typeof reqId === 'string' ? { reqId, ...base } : base;
  }
}
