import type { IncomingHttpHeaders } from 'node:http';
import type { Sandbox } from './sandbox';
import type { Account, ExchangeId } from './types';

/** One exchange request after the prefix is stripped, with the exact bytes that were signed. */
export interface RequestContext {
  sandbox: Sandbox;
  exchange: ExchangeId;
  method: string;
  /** Path without the mount prefix, e.g. /v5/order/create. */
  path: string;
  rawQuery: string;
  rawBody: string;
  query: Record<string, string>;
  body: Record<string, unknown>;
  ip: string;
  headers: IncomingHttpHeaders;
  /** When the request reached the exchange: read off the connection plus the simulated one-way latency (sandbox ms). */
  receivedAt?: number | undefined;
  /** A fault rule's `hideOrderMs`: an order this request places stays invisible to order queries this long (D6). */
  orderHiddenMs?: number | undefined;
}

export interface PrivateContext extends RequestContext {
  account: Account;
}

export type Access = 'public' | 'read' | 'trade';

export interface ApiRoute {
  access: 'read' | 'trade';
  handle(ctx: PrivateContext): unknown;
}

export interface PublicRoute {
  access: 'public';
  handle(ctx: RequestContext): unknown;
}

export type RouteTable = Record<string, ApiRoute | PublicRoute>;

/** An exchange's own error answer (retCode/code + message, optional HTTP status). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}

export function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Positive number from a string/number parameter, undefined when absent or empty. */
export function numberParam(value: unknown): number | undefined {
  const raw = text(value);
  if (raw === undefined || raw.trim() === '') return undefined;
  const parsed = Number(raw);
  return Number.isFinite(parsed) ? parsed : Number.NaN;
}
