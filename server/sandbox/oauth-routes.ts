import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientIp } from './control-routes';
import { consentPage, errorPage } from './oauth-page';
import type { OAuthClient } from './oauth-store';
import type { Sandbox } from './sandbox';
import type { ExchangeId } from './types';

/** USDT credited to every account created through quick connect. */
export const OAUTH_STARTING_BALANCE = 10_000;

interface FlowPaths {
  exchange: ExchangeId;
  authorize: string;
  token: string;
  key: string;
  title: string;
}

const flows: FlowPaths[] = [
  { exchange: 'bybit', authorize: '/en/oauth', token: '/oauth/v1/public/access_token', key: '/oauth/v1/resource/restrict/openapi', title: 'Bybit' },
  { exchange: 'bitget', authorize: '/bitget/oauth/authorize', token: '/bitget/oauth/token', key: '/bitget/oauth/api-key', title: 'Bitget' },
];

function formOf(body: unknown): Record<string, string> {
  if (typeof body !== 'string') return {};
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(trimmed));
}

function withParams(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

function bearer(request: FastifyRequest): string | undefined {
  const value = request.headers.authorization;
  return value?.toLowerCase().startsWith('bearer ') ? value.slice(7).trim() : undefined;
}

/** Answers in the flow's own JSON shape (Bybit ret_code/result, Bitget code/data). */
function json(reply: FastifyReply, exchange: ExchangeId, status: number, data: unknown, error?: { code: string; msg: string }): FastifyReply {
  if (exchange === 'bybit') {
    return reply.status(status).send(error ? { ret_code: Number(error.code), ret_msg: error.msg, result: null } : data);
  }
  return reply.status(status).send(error ? { code: error.code, msg: error.msg, requestTime: Date.now(), data: null } : { code: '00000', msg: 'success', requestTime: Date.now(), data });
}

/** Quick-connect flows: consent page -> redirect with a single-use code -> token -> API key bound to the caller. */
export function registerOAuthRoutes(app: FastifyInstance, sandbox: Sandbox): void {
  for (const flow of flows) {
    const checkClient = (params: Record<string, string | undefined>): { client: OAuthClient; redirectUri: string } | string => {
      const client = sandbox.oauth.client(flow.exchange, params.client_id);
      if (!client) return 'Unknown client_id.';
      if ((params.response_type ?? 'code') !== 'code') return 'response_type must be code.';
      const redirectUri = params.redirect_uri ?? '';
      if (!sandbox.oauth.redirectAllowed(client, redirectUri)) return 'redirect_uri is missing or not registered for this client.';
      return { client, redirectUri };
    };

    app.get(flow.authorize, async (request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply) => {
      const checked = checkClient(request.query);
      if (typeof checked === 'string') return reply.status(400).type('text/html; charset=utf-8').send(errorPage(checked));
      const hidden = { client_id: checked.client.clientId, redirect_uri: checked.redirectUri, state: request.query.state ?? '', scope: request.query.scope ?? 'openapi', response_type: 'code' };
      return reply.type('text/html; charset=utf-8').send(consentPage({ exchange: flow.title, appName: checked.client.name ?? checked.client.clientId, hidden }));
    });

    app.post(flow.authorize, async (request, reply) => {
      const form = formOf(request.body);
      const checked = checkClient(form);
      if (typeof checked === 'string') return reply.status(400).type('text/html; charset=utf-8').send(errorPage(checked));
      const state = form.state ?? '';
      if (form.decision !== 'allow') return reply.redirect(withParams(checked.redirectUri, { error: 'access_denied', state }), 302);
      const code = sandbox.oauth.issueCode(checked.client);
      return reply.redirect(withParams(checked.redirectUri, { response_type: 'code', code, scope: form.scope ?? 'openapi', state }), 302);
    });

    app.post(flow.token, async (request, reply) => {
      const form = formOf(request.body);
      const client = sandbox.oauth.client(flow.exchange, form.client_id);
      if (!client || client.clientSecret !== form.client_secret) return json(reply, flow.exchange, 401, null, { code: '10003', msg: 'invalid client_id or client_secret' });
      const token = form.code ? sandbox.oauth.redeemCode(form.code, client) : undefined;
      if (!token) return json(reply, flow.exchange, 400, null, { code: '10001', msg: 'invalid, expired or already used code' });
      const grant = { access_token: token, token_type: 'bearer', expires_in: 86_400 };
      return flow.exchange === 'bybit'
        ? reply.send({ ...grant, refresh_token: '', refresh_token_expires_in: 0 })
        : json(reply, flow.exchange, 200, grant);
    });

    app.get(flow.key, async (request, reply) => {
      const token = sandbox.oauth.token(bearer(request), flow.exchange);
      if (!token) return json(reply, flow.exchange, 401, null, { code: '10007', msg: 'invalid or expired access token' });
      let account = token.accountUid ? sandbox.accounts.get(token.accountUid) : undefined;
      if (!account) {
        account = sandbox.createAccount({
          exchange: flow.exchange,
          label: `quick connect ${token.client.clientId}`,
          permissions: { read: true, trade: true, withdraw: false },
          ips: [clientIp(request)],
          balance: sandbox.options.oauthStartingBalance ?? OAUTH_STARTING_BALANCE,
          origin: 'oauth',
        });
        token.accountUid = account.uid;
      }
      if (flow.exchange === 'bybit') return reply.send({ ret_code: 0, ret_msg: 'success', result: { api_key: account.apiKey, api_secret: account.secret } });
      return json(reply, 'bitget', 200, { apiKey: account.apiKey, secretKey: account.secret, passphrase: account.passphrase, uid: account.uid });
    });
  }
}
