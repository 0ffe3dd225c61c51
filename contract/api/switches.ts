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
});
export type PauseState = z.infer<typeof pauseState>;

export const pauseBody = z.object({ paused: z.boolean({ error: 'paused must be true or false' }) });
export const platformPauseBody = pauseBody.extend({ code: verificationCode });

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
    method: 'GET', path: '/api/customer/:id/pause', access: 'staffRead', tag: 'switches',
    summary: "Whether the customer's copying is paused", params: idParams, data: pauseState, errors: [ErrorStatus.NotFound],
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
    summary: 'Mail the signed-in admin the 6-digit code that confirms pausing or resuming the platform',
    data: z.object({ success: z.literal(true) }), errors: [ErrorStatus.TooManyRequests],
  }),
  setPlatform: defineRoute({
    method: 'PUT', path: '/api/platform/pause', access: 'adminTrading', tag: 'switches',
    summary: 'Pause or resume every entry alert of the platform, confirmed with the mailed code',
    body: platformPauseBody, data: pauseState, errors: [ErrorStatus.TooManyRequests],
  }),
};
