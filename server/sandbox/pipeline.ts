import type { IncomingHttpHeaders } from 'node:http';
import { apiKeyOf, authenticateBitget, authenticateBybit } from './auth';
import { bitgetError } from './bitget/errors';
import { bitgetRoutes } from './bitget/routes';
import { bybitError } from './bybit/errors';
import { bybitRoutes } from './bybit/routes';
import { EngineError } from './engine-error';
import type { Holds } from './holds';
import { ApiError, type ApiRoute, type PublicRoute, type RequestContext } from './http-types';
import { accountLimits, ipLimits } from './limits';
import { accountLimited, fail, ipLimited, notFound, ok, serverError, type Answer } from './respond';
import { bump, type Sandbox } from './sandbox';
import type { Account, ExchangeId } from './types';

export interface ExchangeRequest {
  method: string;
  path: string;
  rawQuery: string;
  rawBody: string;
  ip: string;
  headers: IncomingHttpHeaders;
  /** When the request was read off the connection (sandbox ms), before any simulated latency. */
  readAt: number;
  /** Registers a callback for the caller disconnecting, so held answers are dropped. */
  onGone: (callback: () => void) => void;
}

/** Which fake exchange a path belongs to: Bybit /v5/..., Bitget /api/... */
export function exchangeOf(path: string): ExchangeId | undefined {
  if (path.startsWith('/v5/')) return 'bybit';
  if (path.startsWith('/api/')) return 'bitget';
  return undefined;
}

function parseBody(exchange: ExchangeId, rawBody: string): Record<string, unknown> {
  if (!rawBody.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(rawBody);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // answered below with the exchange's parameter error
  }
  throw exchange === 'bybit' ? new ApiError('10001', 'params error: the body is not a JSON object') : new ApiError('40017', 'Parameter verification failed: the body is not a JSON object');
}

/** The exchange's own code and message for a refusal (ApiError or EngineError); anything else is a bug and rethrown. */
export function refusalOf(exchange: ExchangeId, error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof EngineError) return exchange === 'bybit' ? bybitError(error) : bitgetError(error);
  throw error;
}

function toAnswer(exchange: ExchangeId, error: unknown, now: number): Answer {
  const refusal = refusalOf(exchange, error);
  return fail(exchange, refusal.code, refusal.message, now, refusal.httpStatus);
}

/**
 * The order every exchange request goes through: per-IP ceiling, injected faults, authentication
 * (key, timestamp, signature over the raw bytes, passphrase, IP, permission), per-account ceiling, handler.
 * Answers undefined when the answer must never come (a "timeout" fault without delay, cut by close()).
 */
export async function handleExchangeRequest(sandbox: Sandbox, holds: Holds, exchange: ExchangeId, request: ExchangeRequest): Promise<Answer | undefined> {
  // The simulated network: the request arrives `latencyMs` after it was sent, the answer as long after it left.
  if (!(await travel(sandbox, holds, request.onGone))) return undefined;
  const answer = await handleArrived(sandbox, holds, exchange, request);
  return answer && (await travel(sandbox, holds, request.onGone)) ? answer : undefined;
}

/** Waits the sandbox's one-way latency (none: at once); false when the caller or the sandbox went away meanwhile. */
export function travel(sandbox: Sandbox, holds: Holds, onGone?: (release: () => void) => void): Promise<boolean> | boolean {
  return sandbox.latencyMs > 0 ? holds.wait(sandbox.latencyMs, onGone) : true;
}

async function handleArrived(sandbox: Sandbox, holds: Holds, exchange: ExchangeId, request: ExchangeRequest): Promise<Answer | undefined> {
  const now = () => sandbox.now();
  const { counters } = sandbox;
  bump(counters.requestsByIp, request.ip);
  if (!passesIpCeiling(sandbox, exchange, request.ip)) {
    bump(counters.rejectedByIp, request.ip);
    return ipLimited(exchange, now());
  }
  const routeKey = `${request.method} ${request.path}`;
  const route: ApiRoute | PublicRoute | undefined = (exchange === 'bybit' ? bybitRoutes : bitgetRoutes)[routeKey];
  if (!route) return notFound(exchange, now());

  const query = Object.fromEntries(new URLSearchParams(request.rawQuery));
  const { onGone: _onGone, readAt, ...parts } = request;
  const ctx: RequestContext = { sandbox, exchange, ...parts, query, body: {} };
  const key = apiKeyOf(ctx);
  const keyed = key ? sandbox.byKey.get(key) : undefined;
  const decision = sandbox.faults.decide({ exchange, method: request.method, route: request.path, accountIds: keyed ? [keyed.uid, keyed.apiKey] : [] });
  if (decision.latencyMs > 0 && !(await holds.wait(decision.latencyMs, request.onGone))) return undefined;
  ctx.receivedAt = readAt + sandbox.latencyMs + decision.latencyMs;
  ctx.orderHiddenMs = decision.hideOrderMs;
  const outcome = decision.outcome;
  if (outcome.kind === 'serverError') return serverError(outcome.status);
  if (outcome.kind === 'rateLimit') {
    counters.forcedRateLimits += 1;
    return accountLimited(exchange, now());
  }
  if (outcome.kind === 'reject') return fail(exchange, outcome.code, outcome.msg, now(), outcome.httpStatus);

  let answer: Answer;
  const limitHeaders: Record<string, string> = {};
  try {
    answer = ok(exchange, await runRoute(sandbox, ctx, route, routeKey, limitHeaders), now());
  } catch (error) {
    answer = error instanceof RateLimited ? accountLimited(exchange, now()) : toAnswer(exchange, error, now());
  }
  answer.headers = { ...answer.headers, ...limitHeaders };
  if (outcome.kind === 'timeout') {
    const elapsed = await holds.wait(outcome.delayMs, request.onGone);
    return elapsed ? answer : undefined;
  }
  return answer;
}

/** The account's per-endpoint ceiling refused the request (Bybit 10006, Bitget 429). */
export class RateLimited extends Error {}

/**
 * The per-IP ceiling. Bybit then bans the address: "403, access too frequent ... terminate all HTTP
 * sessions and wait for at least 10 minutes" (docs/v5/rate-limit/rate-limit.mdx), so every request
 * from it is refused until the ban ends (`ipBanMs`).
 */
function passesIpCeiling(sandbox: Sandbox, exchange: ExchangeId, ip: string): boolean {
  const key = `${exchange}:${ip}`;
  const now = sandbox.now();
  const bannedUntil = sandbox.bans.get(key);
  if (bannedUntil !== undefined) {
    if (bannedUntil > now) return false;
    sandbox.bans.delete(key);
  }
  const rule = ipLimits[exchange];
  if (sandbox.ipWindow.take(key, rule.limit, rule.windowMs, now)) return true;
  if (exchange === 'bybit' && sandbox.ipBanMs > 0) sandbox.bans.set(key, now + sandbox.ipBanMs);
  return false;
}

/** Bybit reports the per-UID budget of limited endpoints in X-Bapi-Limit* headers. */
function bybitLimitHeaders(sandbox: Sandbox, key: string, limit: number, windowMs: number): Record<string, string> {
  const { remaining, resetAt } = sandbox.accountWindow.status(key, limit, windowMs, sandbox.now());
  return { 'X-Bapi-Limit': String(limit), 'X-Bapi-Limit-Status': String(remaining), 'X-Bapi-Limit-Reset-Timestamp': String(resetAt) };
}

async function runRoute(sandbox: Sandbox, ctx: RequestContext, route: ApiRoute | PublicRoute, routeKey: string, headers: Record<string, string>): Promise<unknown> {
  if (route.access === 'public') return (route as PublicRoute).handle(ctx);
  const account = ctx.exchange === 'bybit' ? authenticateBybit(ctx, route.access) : authenticateBitget(ctx, route.access);
  return runAuthenticated(sandbox, ctx, account, route as ApiRoute, routeKey, headers, () => parseBody(ctx.exchange, ctx.rawBody));
}

/**
 * What follows authentication, for HTTP and Bybit's WebSocket trade ops alike (one code path): the
 * account's per-endpoint ceiling (one counter per account and endpoint, whichever way the request came,
 * Bybit websocket/trade/guideline.mdx "The account rate limit is shared between websocket and http"),
 * then the route's own handler with its validation.
 */
export function runAuthenticated(
  sandbox: Sandbox,
  ctx: RequestContext,
  account: Account,
  route: ApiRoute,
  routeKey: string,
  headers: Record<string, string>,
  body: () => Record<string, unknown>,
): unknown {
  bump(sandbox.counters.requestsByAccount, account.uid);
  // Funding falls due on the exchange's clock; a request after a boundary sees it settled.
  sandbox.funding.settleDue(sandbox.now());
  const rule = accountLimits[routeKey];
  if (rule) {
    const key = `${account.uid}:${routeKey}`;
    const allowed = sandbox.accountWindow.take(key, rule.limit, rule.windowMs, sandbox.now());
    if (ctx.exchange === 'bybit') Object.assign(headers, bybitLimitHeaders(sandbox, key, rule.limit, rule.windowMs));
    if (!allowed) {
      bump(sandbox.counters.rejectedByAccount, account.uid);
      throw new RateLimited();
    }
  }
  return route.handle({ ...ctx, body: body(), account });
}
