import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, type Access, type RequestContext } from './http-types';
import type { Account } from './types';

function header(ctx: RequestContext, name: string): string | undefined {
  const value = ctx.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The API key header of a request, whichever exchange it is for (used to scope faults before auth). */
export function apiKeyOf(ctx: RequestContext): string | undefined {
  return header(ctx, ctx.exchange === 'bybit' ? 'x-bapi-api-key' : 'access-key');
}

/** Which access rule the key breaks, if any (the caller words the refusal: an ApiError costs a stack trace). */
function accessRefusal(account: Account, ip: string, access: Access): 'ip' | 'permission' | undefined {
  if (account.ips.length && !account.ips.includes(ip)) return 'ip';
  if (access === 'trade' && !account.permissions.trade) return 'permission';
  if (!account.permissions.read) return 'permission';
  return undefined;
}

/**
 * Bybit V5 HMAC: hex(HMAC_SHA256(secret, timestamp + apiKey + recvWindow + rawQuery|rawBody)), checked
 * against the exact bytes received; timestamp rule server - recvWindow <= ts < server + 1000 (EXCHANGES 2.5).
 */
export function authenticateBybit(ctx: RequestContext, access: Access): Account {
  const key = header(ctx, 'x-bapi-api-key');
  const account = key ? ctx.sandbox.byKey.get(key) : undefined;
  if (!account || account.exchange !== 'bybit') throw new ApiError('10003', 'API key is invalid.');
  const timestampText = header(ctx, 'x-bapi-timestamp') ?? '';
  const recvText = header(ctx, 'x-bapi-recv-window') ?? '5000';
  checkBybitTimestamp(timestampText, recvText, ctx.sandbox.now());
  const payload = timestampText + key + recvText + (ctx.method === 'GET' ? ctx.rawQuery : ctx.rawBody);
  const expected = createHmac('sha256', account.secret).update(payload).digest('hex');
  if (!sameText(expected, header(ctx, 'x-bapi-sign') ?? '')) {
    throw new ApiError('10004', `error sign! origin_string[${payload}]`);
  }
  checkBybitAccess(account, ctx.ip, access);
  return account;
}

/** The key's IP whitelist and permission, Bybit's codes (HTTP after the signature, WebSocket on every order op). */
export function checkBybitAccess(account: Account, ip: string, access: Access): void {
  const refusal = accessRefusal(account, ip, access);
  if (refusal === 'ip') throw new ApiError('10010', "Unmatched IP, please check your API key's bound IP addresses.");
  if (refusal === 'permission') throw new ApiError('10005', 'Permission denied, please check your API key permissions.');
}

/** Bybit's timestamp rule: server - recvWindow <= ts < server + 1000, else 10002 (docs/v5/guide; the WebSocket trade header too). */
export function checkBybitTimestamp(timestampText: string, recvText: string, now: number): void {
  const timestamp = Number(timestampText);
  const recvWindow = Number(recvText);
  if (!timestampText || !Number.isFinite(timestamp) || !Number.isFinite(recvWindow) || !(now - recvWindow <= timestamp && timestamp < now + 1000)) {
    throw new ApiError(
      '10002',
      `invalid request, please check your server timestamp or recv_window param. req_timestamp[${timestampText}],server_timestamp[${now}],recv_window[${recvText}]`,
    );
  }
}

/** Bitget's tolerance for ACCESS-TIMESTAMP (the docs give none; 30 s is the commonly cited window). */
export const BITGET_TIMESTAMP_WINDOW_MS = 30_000;

/**
 * Bitget V2 HMAC: base64(HMAC_SHA256(secret, timestamp + METHOD + path + ('?' + decoded raw query) + rawBody)),
 * path without the sandbox mount prefix; plus the plain-text passphrase (EXCHANGES 3.5).
 */
export function authenticateBitget(ctx: RequestContext, access: Access): Account {
  const key = header(ctx, 'access-key');
  if (!key) throw new ApiError('40006', 'Invalid ACCESS_KEY');
  const account = ctx.sandbox.byKey.get(key);
  if (!account || account.exchange !== 'bitget') throw new ApiError('40037', 'Apikey does not exist');
  const passphrase = header(ctx, 'access-passphrase') ?? '';
  if (!passphrase) throw new ApiError('40011', 'ACCESS_PASSPHRASE can not be empty');
  if (!sameText(passphrase, account.passphrase)) throw new ApiError('40012', 'apikey/password is incorrect');
  const timestampText = header(ctx, 'access-timestamp') ?? '';
  const timestamp = Number(timestampText);
  if (!Number.isFinite(timestamp) || Math.abs(ctx.sandbox.now() - timestamp) > BITGET_TIMESTAMP_WINDOW_MS) {
    throw new ApiError('40008', 'Request timestamp expired');
  }
  let query: string;
  try {
    query = ctx.rawQuery ? `?${decodeURIComponent(ctx.rawQuery)}` : '';
  } catch {
    throw new ApiError('40009', 'sign signature error');
  }
  const prehash = timestampText + ctx.method + ctx.path + query + ctx.rawBody;
  const expected = createHmac('sha256', account.secret).update(prehash).digest('base64');
  if (!sameText(expected, header(ctx, 'access-sign') ?? '')) throw new ApiError('40009', 'sign signature error');
  const refusal = accessRefusal(account, ctx.ip, access);
  if (refusal === 'ip') throw new ApiError('40018', 'Invalid IP');
  if (refusal === 'permission') throw new ApiError('40014', 'Incorrect permissions');
  return account;
}
