import { fetchUtils, HttpError } from 'ra-core';
import { ui } from '../../contract/messages';
import { pathOf, type RouteBodyInput, type RouteData, type RouteDef, type RouteQueryInput } from '../../contract/route';
import { readToken } from './token';

/** Arguments of one contract route call; `params` fill the `:name` segments of its path. */
export interface CallArgs<R extends RouteDef> {
  params?: Record<string, string | number>;
  query?: RouteQueryInput<R> extends undefined ? undefined : RouteQueryInput<R>;
  body?: RouteBodyInput<R> extends undefined ? undefined : RouteBodyInput<R>;
  /** Send no Bearer header even when a token cookie exists (public calls). */
  anonymous?: boolean;
  signal?: AbortSignal;
}

interface EnvelopeBody {
  successful?: boolean;
  data?: unknown;
  error?: { message?: string } | null;
}

function absolute(path: string): string {
  return new URL(path, window.location.origin).toString();
}

function queryString(query: object | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function messageOf(body: unknown, fallback: string): string {
  const message = (body as EnvelopeBody | undefined)?.error?.message;
  return typeof message === 'string' && message ? message : fallback;
}

/**
 * Calls one route of contract/api and answers the envelope's `data`, typed by the route.
 * `successful: false` and HTTP errors become an `HttpError` carrying `error.message` and the status.
 */
export async function callRoute<R extends RouteDef>(route: R, args: CallArgs<R> = {}): Promise<RouteData<R>> {
  const url = absolute(pathOf(route.path, args.params) + queryString(args.query as object | undefined));
  const headers = new Headers({ Accept: 'application/json' });
  const token = args.anonymous ? undefined : readToken();
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  let json: EnvelopeBody | undefined;
  let status: number;
  try {
    const response = await fetchUtils.fetchJson(url, {
      method: route.method,
      headers,
      ...(hasBody ? { body: JSON.stringify(args.body ?? {}) } : {}),
      ...(token ? { user: { authenticated: true, token: `Bearer ${token}` } } : {}),
      ...(args.signal ? { signal: args.signal } : {}),
    });
    json = response.json as EnvelopeBody | undefined;
    status = response.status;
  } catch (error) {
    if (error instanceof HttpError) throw new HttpError(messageOf(error.body, error.message || ui.fallback.requestFailed), error.status, error.body);
    throw error;
  }
  if (!json || json.successful !== true) throw new HttpError(messageOf(json, ui.fallback.unknownServerError), status, json);
  return json.data as RouteData<R>;
}

/** The status of a failed call (0 when the request never reached the server). */
export function statusOf(error: unknown): number {
  return error instanceof HttpError ? error.status : 0;
}

/** The message to show for a failed call, or `fallback` when the error carries none. */
export function errorMessage(error: unknown, fallback: string = ui.fallback.unknownError): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
