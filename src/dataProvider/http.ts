import { HttpError } from 'ra-core';
import { pathOf, type RouteBodyInput, type RouteData, type RouteDef, type RouteQueryInput } from '../../contract/route';
import { readToken } from './token';

/**
 * The HTTP client of the web app. Only `src/dataProvider` and `src/authProvider` import this file
 * (a test enforces it): screens call the dataProvider, public pages the authProvider's `publicApi`.
 */

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

/** The server's `error.message`, or '' so that the screen's own fallback text applies (spec 8). */
function messageOf(body: EnvelopeBody | undefined): string {
  const message = body?.error?.message;
  return typeof message === 'string' ? message : '';
}

async function readJson(response: Response): Promise<EnvelopeBody | undefined> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as EnvelopeBody;
  } catch {
    return undefined;
  }
}

/**
 * Calls one route of contract/api and answers the envelope's `data`, typed by the route.
 * `successful: false` and HTTP errors become react-admin's `HttpError` carrying `error.message`
 * (empty when the server gave none: `errorMessage(error, fallback)` then shows the screen's fallback)
 * and the status. A request that never reached the server rejects with the transport's error.
 */
export async function callRoute<R extends RouteDef>(route: R, args: CallArgs<R> = {}): Promise<RouteData<R>> {
  const url = new URL(pathOf(route.path, args.params) + queryString(args.query as object | undefined), window.location.origin);
  const headers = new Headers({ Accept: 'application/json' });
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  if (hasBody) headers.set('Content-Type', 'application/json');
  const token = args.anonymous ? undefined : readToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch(url, {
    method: route.method,
    headers,
    ...(hasBody ? { body: JSON.stringify(args.body ?? {}) } : {}),
    ...(args.signal ? { signal: args.signal } : {}),
  });
  const json = await readJson(response);
  if (!response.ok || !json || json.successful !== true) throw new HttpError(messageOf(json), response.status, json);
  return json.data as RouteData<R>;
}
