import type { ExchangeId } from './types';

export interface Answer {
  status: number;
  body: string;
  contentType: string;
  headers?: Record<string, string>;
}

export function ok(exchange: ExchangeId, data: unknown, now: number): Answer {
  const body =
    exchange === 'bybit'
      ? { retCode: 0, retMsg: 'OK', result: data, retExtInfo: {}, time: now }
      : { code: '00000', msg: 'success', requestTime: now, data };
  return { status: 200, body: JSON.stringify(body), contentType: 'application/json' };
}

/** Bybit errors answer HTTP 200 with a retCode; Bitget errors answer HTTP 400 with a code (429 for limits). */
export function fail(exchange: ExchangeId, code: string, msg: string, now: number, status?: number): Answer {
  if (exchange === 'bybit') {
    const body = { retCode: Number(code), retMsg: msg, result: {}, retExtInfo: {}, time: now };
    return { status: status ?? 200, body: JSON.stringify(body), contentType: 'application/json' };
  }
  const body = { code, msg, requestTime: now, data: null };
  return { status: status ?? 400, body: JSON.stringify(body), contentType: 'application/json' };
}

/** Per-IP ceiling: Bybit HTTP 403 "access too frequent"; Bitget HTTP 429 {"code":"429","msg":"Too Many Requests"}. */
export function ipLimited(exchange: ExchangeId, now: number): Answer {
  if (exchange === 'bybit') return { status: 403, body: 'access too frequent', contentType: 'text/plain' };
  return { status: 429, body: JSON.stringify({ code: '429', msg: 'Too Many Requests', requestTime: now, data: null }), contentType: 'application/json' };
}

/** Per-account ceiling: Bybit retCode 10006 "Too many visits!"; Bitget HTTP 429. */
export function accountLimited(exchange: ExchangeId, now: number): Answer {
  if (exchange === 'bybit') return fail('bybit', '10006', 'Too many visits!', now);
  return ipLimited('bitget', now);
}

export function serverError(status: number): Answer {
  return { status, body: `<html><body><h1>${status} Service Unavailable</h1></body></html>`, contentType: 'text/html' };
}

export function notFound(exchange: ExchangeId, now: number): Answer {
  if (exchange === 'bybit') return { status: 404, body: '404 page not found', contentType: 'text/plain' };
  return fail('bitget', '40404', 'Request URL NOT FOUND', now, 404);
}
