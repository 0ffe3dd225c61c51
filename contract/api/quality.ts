import { z } from 'zod';
import { idParams } from '../common';
import { defineRoute, ErrorStatus } from '../route';
import { strategyIdParams } from './strategy';

/**
 * Execution quality (issue 29): for every copy of an alert, how long it took from the alert's arrival to the
 * entry handed to the exchange client, acknowledged by the exchange, and known filled; and how far its fill
 * was from the alert's price and from the first fill of the same alert, in basis points (positive: worse for
 * the customer: paid more on a long, received less on a short). Null where it does not apply (not sent, no
 * fill, the alert carried no price).
 */
export const executionQuality = z.object({
  executionId: z.number().int(),
  orderId: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  platformType: z.number().int(),
  state: z.string(),
  /** ISO time the alert arrived (the Order's creation). */
  alertAt: z.string(),
  sentMs: z.number().nullable(),
  ackMs: z.number().nullable(),
  fillMs: z.number().nullable(),
  entryPrice: z.number().nullable(),
  slippageVsAlertBps: z.number().nullable(),
  slippageVsFirstFillBps: z.number().nullable(),
});
export type ExecutionQuality = z.infer<typeof executionQuality>;

/** One day (UTC) of a strategy's copies. */
export const qualityDay = z.object({
  day: z.string(),
  executions: z.number().int(),
  p50AckMs: z.number().nullable(),
  p95AckMs: z.number().nullable(),
  meanSlippageBps: z.number().nullable(),
});

export const strategyQuality = z.object({
  days: z.number().int(),
  /** Copies the strategy's alerts made (executions), and how many of them filled. */
  executions: z.number().int(),
  filled: z.number().int(),
  /** filled / executions; null without executions. */
  fillRate: z.number().nullable(),
  p50AckMs: z.number().nullable(),
  p95AckMs: z.number().nullable(),
  p50FillMs: z.number().nullable(),
  p95FillMs: z.number().nullable(),
  meanSlippageBps: z.number().nullable(),
  p95SlippageBps: z.number().nullable(),
  /** Entries skipped (entry audits), by reason as GET /metrics names them. */
  skipped: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  daily: z.array(qualityDay),
});
export type StrategyQuality = z.infer<typeof strategyQuality>;

export const QUALITY_MAX_DAYS = 365;
export const qualityQuery = z.object({
  days: z.coerce.number({ error: `days must be a whole number from 1 to ${QUALITY_MAX_DAYS}` }).int(`days must be a whole number from 1 to ${QUALITY_MAX_DAYS}`).min(1, `days must be a whole number from 1 to ${QUALITY_MAX_DAYS}`).max(QUALITY_MAX_DAYS, `days must be a whole number from 1 to ${QUALITY_MAX_DAYS}`).default(30),
});

/** The most rows one export answers (newest first). */
export const QUALITY_EXPORT_MAX = 10_000;

export const qualityRoutes = {
  order: defineRoute({
    method: 'GET', path: '/api/order/:id/quality', access: 'staffRead', tag: 'quality',
    summary: "Execution quality of every copy of the order: latencies from the alert and slippage of each fill", params: idParams, data: z.array(executionQuality), errors: [ErrorStatus.NotFound],
  }),
  strategy: defineRoute({
    method: 'GET', path: '/api/strategy/:id/quality', access: 'staffRead', tag: 'quality',
    summary: "The strategy's execution quality over the last `days`: latency and slippage percentiles, fill rate, skips by reason, and per day",
    params: strategyIdParams, query: qualityQuery, data: strategyQuality, errors: [ErrorStatus.NotFound],
  }),
  strategyExecutions: defineRoute({
    method: 'GET', path: '/api/strategy/:id/quality/executions', access: 'staffRead', tag: 'quality',
    summary: `Every copy of the strategy's alerts over the last \`days\` with its quality (newest first, at most ${QUALITY_EXPORT_MAX}), for export`,
    params: strategyIdParams, query: qualityQuery, data: z.array(executionQuality), errors: [ErrorStatus.NotFound],
  }),
};
