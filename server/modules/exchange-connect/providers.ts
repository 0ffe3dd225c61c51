import { defaultOAuthClients } from '../../sandbox/oauth-store';
import type { ExchangeAccess } from '../../trading/exchanges/for-deps';
import type { Credentials, ExchangeId } from '../../trading/exchanges/types';

/** A failure of the quick-connect exchange calls, worded for the customer. */
export class ConnectError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectError';
  }
}

interface OAuthEndpoints {
  authorize: string;
  token: string;
  key: string;
  clientId: string;
  clientSecret: string;
}

const LIVE_BYBIT = {
  authorize: 'https://www.bybit.com/en/oauth',
  token: 'https://api2.bybit.com/oauth/v1/public/access_token',
  key: 'https://api2.bybit.com/oauth/v1/resource/restrict/openapi',
};

const sandboxClient = (exchange: ExchangeId) => defaultOAuthClients.find((client) => client.exchange === exchange)!;

/**
 * The OAuth endpoints and client of an exchange: Bybit's documented flow (EXCHANGES 4.1) live, and
 * the sandbox's Bybit- and Bitget-shaped flows offline. Bitget publishes no quick-connect API.
 * `sandboxPages` is where the browser reaches the sandbox's authorize page (the server calls the
 * token and key endpoints at `sandboxUrl`).
 */
export function endpointsOf(
  access: Pick<ExchangeAccess, 'mode' | 'sandboxUrl' | 'bybitOAuth'>,
  exchange: ExchangeId,
  options: { sandboxPages?: string } = {},
): OAuthEndpoints {
  if (access.mode === 'testnet') {
    // Bybit's testnet OAuth is undocumented for broker apps (EXCHANGES 4.1) and Bitget has none.
    throw new ConnectError(400, 'Quick connect is not available on the exchanges\' test environments. Staff can add the customer\'s Bybit testnet or Bitget demo API key instead.');
  }
  if (access.mode === 'live') {
    if (exchange === 'bitget') {
      throw new ConnectError(400, 'Bitget quick connect needs Bitget partner documentation (it is not public) and is not available yet. Please choose Bybit.');
    }
    if (!access.bybitOAuth) {
      throw new ConnectError(503, 'Bybit quick connect is not configured on this server (BYBIT_OAUTH_CLIENT_ID and BYBIT_OAUTH_CLIENT_SECRET). Please contact support.');
    }
    return { ...LIVE_BYBIT, ...access.bybitOAuth };
  }
  const base = access.sandboxUrl!;
  const client = sandboxClient(exchange);
  const prefix = exchange === 'bybit' ? { authorize: '/en/oauth', token: '/oauth/v1/public/access_token', key: '/oauth/v1/resource/restrict/openapi' } : { authorize: '/bitget/oauth/authorize', token: '/bitget/oauth/token', key: '/bitget/oauth/api-key' };
  return {
    authorize: (options.sandboxPages ?? base) + prefix.authorize,
    token: base + prefix.token,
    key: base + prefix.key,
    clientId: (exchange === 'bybit' ? access.bybitOAuth?.clientId : undefined) ?? client.clientId,
    clientSecret: (exchange === 'bybit' ? access.bybitOAuth?.clientSecret : undefined) ?? client.clientSecret,
  };
}

export function authorizeUrl(endpoints: OAuthEndpoints, redirectUri: string, state: string): string {
  const url = new URL(endpoints.authorize);
  url.searchParams.set('client_id', endpoints.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', 'openapi');
  url.searchParams.set('state', state);
  return url.toString();
}

type JsonObject = Record<string, unknown>;

async function call(access: Pick<ExchangeAccess, 'fetch'>, url: string, init: RequestInit, label: string): Promise<JsonObject> {
  let response: Response;
  try {
    response = await access.fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch {
    throw new ConnectError(502, `The exchange could not be reached (${label}). Please try again in a minute.`);
  }
  const text = await response.text();
  try {
    return JSON.parse(text) as JsonObject;
  } catch {
    throw new ConnectError(502, `The exchange answered something unexpected (${label}, HTTP ${response.status}). Please try again.`);
  }
}

const object = (value: unknown): JsonObject => (value && typeof value === 'object' ? (value as JsonObject) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** Spends the authorization code (single use) and fetches the API key the exchange issued for us. */
export async function exchangeCode(access: Pick<ExchangeAccess, 'fetch'>, exchange: ExchangeId, endpoints: OAuthEndpoints, code: string): Promise<Credentials> {
  const form = new URLSearchParams({ client_id: endpoints.clientId, client_secret: endpoints.clientSecret, code });
  const grant = await call(access, endpoints.token, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() }, 'token');
  // Bybit answers the token unwrapped; Bitget's flow wraps it in { code, data }.
  const accessToken = text(grant.access_token) ?? text(object(grant.data).access_token);
  if (!accessToken) throw new ConnectError(400, 'The exchange did not accept the authorization (the code is invalid, expired or already used). Please press Connect Exchange again.');
  const answer = await call(access, endpoints.key, { method: 'GET', headers: { authorization: `Bearer ${accessToken}` } }, 'API key');
  if (exchange === 'bybit') {
    const result = object(answer.result);
    const apiKey = text(result.api_key);
    const secret = text(result.api_secret);
    if (Number(answer.ret_code) !== 0 || !apiKey || !secret) throw new ConnectError(502, 'Bybit did not issue an API key. Please press Connect Exchange again.');
    return { apiKey, secret };
  }
  const data = object(answer.data);
  const apiKey = text(data.apiKey);
  const secret = text(data.secretKey);
  const passphrase = text(data.passphrase);
  if (answer.code !== '00000' || !apiKey || !secret || !passphrase) throw new ConnectError(502, 'Bitget did not issue an API key. Please press Connect Exchange again.');
  return { apiKey, secret, passphrase };
}
