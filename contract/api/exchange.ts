import { z } from 'zod';
import { text } from '../common';
import { defineRoute, ErrorStatus } from '../route';

/**
 * Quick connect (spec 2 "/auth/connect", 7 "GET {exchange path}{tempAccountId}"). The exchange path
 * of Bitget is /api/security/bitget/oauth/, of Bybit /api/security/bybit/oauth/ (Binance and OKX are
 * "Coming soon" and answer 400). The answer's `url` is the exchange's authorize page; after the
 * customer allows access the exchange sends the browser to the callback, which ends on
 * /auth/exchange/success?platformType=N&accessToken=T (or a plain error page).
 */
export const connectParams = z.object({
  exchange: text().trim().toLowerCase().max(20, 'exchange is too long'),
  tempAccountId: text().trim().max(64, 'tempAccountId is too long'),
});

export const exchangeRoutes = {
  connectUrl: defineRoute({
    method: 'GET', path: '/api/security/:exchange/oauth/:tempAccountId', access: 'public', tag: 'security',
    summary: "The exchange's authorize URL for a sign-up's quick connect (state signed and bound to the temporary account, 10 minutes)",
    params: connectParams, data: z.object({ url: z.string() }),
    errors: [ErrorStatus.NotFound, ErrorStatus.Conflict, ErrorStatus.Gone, ErrorStatus.Unavailable],
  }),
};

/** Where the exchange sends the browser back (HTML/redirect, not an envelope). */
export const OAUTH_CALLBACK_PATH = '/api/security/:exchange/oauth/callback';

/**
 * Every answer of the callback, for the API document: a browser lands here, so success is a
 * redirect and each failure an HTML page saying what happened (no envelope).
 */
export const OAUTH_CALLBACK_ANSWERS = {
  302: 'Connected: redirects to the success page /auth/exchange/success?platformType=N&accessToken=T',
  400: 'HTML page: the exchange reported a cancel, the state is missing, forged or expired, no code came back, the exchange refused the code, or quick connect is not offered for this exchange',
  404: 'HTML page: the sign-up this state names does not exist',
  409: 'HTML page: the sign-up is already connected, or its account is no longer waiting for a connection',
  410: 'HTML page: the sign-up expired (24 hours after the account form)',
  500: 'HTML page: an unexpected failure; nothing was saved, and the failure is logged',
  502: 'HTML page: the exchange could not be reached or answered something unusable',
  503: 'HTML page: quick connect is not configured on this server',
} as const;
export const CONNECT_SUCCESS_PATH = '/auth/exchange/success';
