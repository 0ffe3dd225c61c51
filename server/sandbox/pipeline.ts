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
import type { ExchangeId } from './types';

export interface ExchangeRequest {
  method: string;
  path: string;
  rawQuery: string;
  rawBody: string;
  ip: string;
  headers: IncomingHttpHeaders;
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

function toAnswer(exchange: ExchangeId, error: unknown, now: number): Answer {
  if (error instanceof ApiError) return fail(exchange, error.code, error.message, now, error.httpStatus);
  if (error instanceof EngineError) {
    const mapped = exchange === 'bybit' ? bybitError(error) : bitgetError(error);
    return fail(exchange, mapped.code, mapped.message, now);
  }
  throw error;
}

/**
 * The order every exchange request goes through: per-IP ceiling, injected faults, authentication
 * (key, timestamp, signature over the raw bytes, passphrase, IP, permission), per-account ceiling, handler.
 * Answers undefined when the answer must never come (a "timeout" fault without delay, cut by close()).
 */
export async function handleExchangeRequest(sandbox: Sandbox, holds: Holds, exchange: ExchangeId, request: ExchangeRequest): Promise<Answer | undefined> {
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
  const { onGone: _onGone, ...parts } = request;
  const ctx: RequestContext = { sandbox, exchange, ...parts, query, body: {} };
  const key = apiKeyOf(ctx);
  const keyed = key ? sandbox.byKey.get(key) : undefined;
  const decision = sandbox.faults.decide({ exchange, method: request.method, route: request.path, accountIds: keyed ? [keyed.uid, keyed.apiKey] : [] });
  if (decision.latencyMs > 0 && !(await holds.wait(decision.latencyMs, request.onGone))) return undefined;
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

class RateLimited extends Error {}

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
  bump(sandbox.counters.requestsByAccount, account.uid);
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
  const body = parseBody(ctx.exchange, ctx.rawBody);
  return (route as ApiRoute).handle({ ...ctx, body, account });
}
