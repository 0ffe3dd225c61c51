import type { z } from 'zod';
import type { AccessRule } from './access';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One API endpoint: its method and path (Fastify syntax, `:id`), who may call it, and the zod
 * schemas of its params, query, body and of the `data` its envelope carries. The server registers
 * routes from these definitions; the web app builds its calls from the same objects.
 */
export interface RouteDef<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  D extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  path: string;
  access: AccessRule;
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  data: D;
  /** Agents and customers only ever reach their own records; others answer 404. */
  ownRecordsOnly?: boolean;
  /** Message of the 401 when no token is sent, where the spec gives a specific one. */
  unauthenticatedMessage?: string;
  /** Body size limit in bytes, when it differs from the server default. */
  bodyLimit?: number;
  /** The handler reads the body itself, as text of any content type: what the OpenAPI document says of it. */
  rawBody?: string;
  /**
   * Error statuses the handler itself answers (404 unknown record, 409 conflict, 429 rate limit...).
   * Those every route of its kind can answer (400 bad input, 401/403 on protected routes, 413/415
   * on routes that read a body, 500) are added by the server; the OpenAPI document lists them all.
   */
  errors?: readonly ErrorStatus[];
}

/** The error statuses the API answers, always with the envelope. */
export const ErrorStatus = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  Conflict: 409,
  Gone: 410,
  PayloadTooLarge: 413,
  UriTooLong: 414,
  UnsupportedMediaType: 415,
  TooManyRequests: 429,
  Internal: 500,
  BadGateway: 502,
  Unavailable: 503,
} as const;
export type ErrorStatus = (typeof ErrorStatus)[keyof typeof ErrorStatus];

export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  D extends z.ZodType = z.ZodType,
>(def: RouteDef<P, Q, B, D>): RouteDef<P, Q, B, D> {
  return def;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type Input<T> = T extends z.ZodType ? z.input<T> : undefined;

/** Types of a route as the server sees them (after parsing) and as a client sends them. */
export type RouteParams<R> = R extends RouteDef<infer P, any, any, any> ? Infer<P> : never;
export type RouteQuery<R> = R extends RouteDef<any, infer Q, any, any> ? Infer<Q> : never;
export type RouteBody<R> = R extends RouteDef<any, any, infer B, any> ? Infer<B> : never;
export type RouteBodyInput<R> = R extends RouteDef<any, any, infer B, any> ? Input<B> : never;
export type RouteQueryInput<R> = R extends RouteDef<any, infer Q, any, any> ? Input<Q> : never;
export type RouteData<R> = R extends RouteDef<any, any, any, infer D> ? z.infer<D> : never;

/** Fills `:name` segments: pathOf('/api/customer/:id', { id: 5 }) === '/api/customer/5'. */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
