import { z } from 'zod';
import { defineRoute, ErrorStatus } from '../route';
import { strategyIdParams } from './strategy';

/** The longest maximum alert age a strategy may set: one day. */
export const MAX_ALERT_AGE_LIMIT_S = 86_400;

/**
 * Guards of a strategy (issue 29). The maximum alert age: an entry alert stamped (`timestamp`,
 * TradingView's {{timenow}}) longer ago than this is answered 200, audited as arriving late and opens
 * no Order. Unset, the process's MAX_ALERT_AGE_MS applies.
 */
export const strategyGuards = z.object({
  /** Seconds; null: the default below applies. */
  maxAlertAgeS: z.number().int().nullable(),
  /** The process's default (MAX_ALERT_AGE_MS), in whole seconds. */
  defaultMaxAlertAgeS: z.number().int(),
});
export type StrategyGuards = z.infer<typeof strategyGuards>;

export const strategyGuardsMessages = {
  maxAlertAge: `Maximum alert age must be a whole number of seconds from 1 to ${MAX_ALERT_AGE_LIMIT_S}, or empty for the default`,
};

export const strategyGuardsBody = z.object({
  maxAlertAgeS: z
    .number({ error: strategyGuardsMessages.maxAlertAge })
    .int(strategyGuardsMessages.maxAlertAge)
    .min(1, strategyGuardsMessages.maxAlertAge)
    .max(MAX_ALERT_AGE_LIMIT_S, strategyGuardsMessages.maxAlertAge)
    .nullable(),
});
export type StrategyGuardsBody = z.infer<typeof strategyGuardsBody>;

export const guardRoutes = {
  strategyGuards: defineRoute({
    method: 'GET', path: '/api/strategy/:id/guards', access: 'staffRead', tag: 'guards',
    summary: "The strategy's guards: the maximum age of its entry alerts", params: strategyIdParams, data: strategyGuards, errors: [ErrorStatus.NotFound],
  }),
  setStrategyGuards: defineRoute({
    method: 'PUT', path: '/api/strategy/:id/guards', access: 'adminTrading', tag: 'guards',
    summary: 'Set the strategy\'s guards (an entry alert older than its maximum age is answered 200, audited as late, no order)',
    params: strategyIdParams, body: strategyGuardsBody, data: strategyGuards, errors: [ErrorStatus.NotFound],
  }),
};
