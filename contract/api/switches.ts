import { z } from 'zod';
import { idParams } from '../common';
import { defineRoute, ErrorStatus } from '../route';
import { verificationCode } from './account';
import { strategyIdParams } from './strategy';

/**
 * Kill switches (issue 29): pause a strategy, one customer's copying, or the whole platform. A paused
 * scope's entries are skipped and audited ("strategy paused", "customer paused", "platform paused");
 * close alerts and open positions' protection go on. Staff read the state; admins change it, the
 * platform's only with a code mailed to them (as a sign-in is confirmed).
 */
export const pauseState = z.object({
  paused: z.boolean(),
  /** ISO time the pause began; null while running. */
  pausedAt: z.string().nullable(),
  /** Why a customer's loss guard paused their copying; null when staff paused it (or while running). */
  reason: z.string().nullable(),
  /** ISO time a guard's pause ends by itself (the next day); null: until an admin resumes it. */
  resumeAt: z.string().nullable(),
});
export type PauseState = z.infer<typeof pauseState>;

export const pauseBody = z.object({ paused: z.boolean({ error: 'paused must be true or false' }) });
export const platformPauseBody = pauseBody.extend({ code: verificationCode });

/**
 * Close all (issue 29): every live position of a strategy, of a customer or of the platform closed at
 * market through the engine's close path (reduce-only; a close the book does not fill keeps its stop and
 * is sent again). `positions` were asked to close, `closed` of them are done; of the rest, `protected`
 * hold their stop on the exchange.
 */
export const closeAllProgress = z.object({
  id: z.number().int(),
  scope: z.enum(['platform', 'strategy', 'customer']),
  /** ISO time it was asked for. */
  requestedAt: z.string(),
  positions: z.number().int(),
  closed: z.number().int(),
  protected: z.number().int(),
});
export type CloseAllProgress = z.infer<typeof closeAllProgress>;
/** The latest close-all of a scope, null when none was ever asked for. */
export const closeAllState = z.object({ last: closeAllProgress.nullable() });
export type CloseAllState = z.infer<typeof closeAllState>;
export const platformCloseAllBody = z.object({ code: verificationCode });

export const switchRoutes = {
  strategyState: defineRoute({
    method: 'GET', path: '/api/strategy/:id/pause', access: 'staffRead', tag: 'switches',
    summary: "Whether the strategy's entry alerts are paused", params: strategyIdParams, data: pauseState, errors: [ErrorStatus.NotFound],
  }),
  setStrategy: defineRoute({
    method: 'PUT', path: '/api/strategy/:id/pause', access: 'adminTrading', tag: 'switches',
    summary: "Pause or resume the strategy's entry alerts (answered 200, audited as skipped \"strategy paused\", no order)",
    params: strategyIdParams, body: pauseBody, data: pauseState, errors: [ErrorStatus.NotFound],
  }),
  customerState: defineRoute({
    method: 'GET', path: '/api/customer/:id/pause', access: ['staffRead', 'customerOwn'], tag: 'switches',
    summary: "Whether the customer's copying is paused, and why when a loss guard paused it (a customer reads their own)", params: idParams, data: pauseState, errors: [ErrorStatus.NotFound],
  }),
  setCustomer: defineRoute({
    method: 'PUT', path: '/api/customer/:id/pause', access: 'adminTrading', tag: 'switches',
    summary: "Pause or resume the customer's copying (their entries skipped, audited \"customer paused\"; open positions stay protected)",
    params: idParams, body: pauseBody, data: pauseState, errors: [ErrorStatus.NotFound],
  }),
  platformState: defineRoute({
    method: 'GET', path: '/api/platform/pause', access: 'staffRead', tag: 'switches',
    summary: 'Whether every entry alert of the platform is paused', data: pauseState,
  }),
  platformCode: defineRoute({
    method: 'POST', path: '/api/platform/pause/code', access: 'adminTrading', tag: 'switches',
    summary: "Mail the signed-in admin the 6-digit code that confirms a platform-wide switch: pausing, resuming or closing all of the platform's positions",
    data: z.object({ success: z.literal(true) }), errors: [ErrorStatus.TooManyRequests],
  }),
  setPlatform: defineRoute({
    method: 'PUT', path: '/api/platform/pause', access: 'adminTrading', tag: 'switches',
    summary: 'Pause or resume every entry alert of the platform, confirmed with the mailed code',
    body: platformPauseBody, data: pauseState, errors: [ErrorStatus.TooManyRequests],
  }),
  strategyCloseAllState: defineRoute({
    method: 'GET', path: '/api/strategy/:id/close-all', access: 'staffRead', tag: 'switches',
    summary: "The strategy's latest close-all and how far it got", params: strategyIdParams, data: closeAllState, errors: [ErrorStatus.NotFound],
  }),
  closeAllStrategy: defineRoute({
    method: 'POST', path: '/api/strategy/:id/close-all', access: 'adminTrading', tag: 'switches',
    summary: "Close every live position of the strategy's active orders at market (each audited as closed by admin); cannot be undone",
    params: strategyIdParams, data: closeAllProgress, errors: [ErrorStatus.NotFound],
  }),
  customerCloseAllState: defineRoute({
    method: 'GET', path: '/api/customer/:id/close-all', access: 'staffRead', tag: 'switches',
    summary: "The customer's latest close-all and how far it got", params: idParams, data: closeAllState, errors: [ErrorStatus.NotFound],
  }),
  closeAllCustomer: defineRoute({
    method: 'POST', path: '/api/customer/:id/close-all', access: 'adminTrading', tag: 'switches',
    summary: "Close every live position of the customer at market, whatever the strategy (each audited as closed by admin); cannot be undone",
    params: idParams, data: closeAllProgress, errors: [ErrorStatus.NotFound],
  }),
  platformCloseAllState: defineRoute({
    method: 'GET', path: '/api/platform/close-all', access: 'staffRead', tag: 'switches',
    summary: "The platform's latest close-all and how far it got", data: closeAllState,
  }),
  closeAllPlatform: defineRoute({
    method: 'POST', path: '/api/platform/close-all', access: 'adminTrading', tag: 'switches',
    summary: 'Close every live position of the platform at market, confirmed with the mailed code; cannot be undone',
    body: platformCloseAllBody, data: closeAllProgress, errors: [ErrorStatus.TooManyRequests],
  }),
};
