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
export const CONNECT_SUCCESS_PATH = '/auth/exchange/success';
