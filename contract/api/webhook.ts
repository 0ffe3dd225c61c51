import { z } from 'zod';
import { text } from '../common';
import { defineRoute, ErrorStatus } from '../route';

export const webhookParams = z.object({
  token: text().min(1, 'token is required').max(200, 'token is too long'),
});

export const webhookAnswer = z.object({
  /** 'Webhook received successfully' */
  message: z.string(),
  signalId: z.number().int(),
  action: z.enum(['open', 'close']),
  /** The repeat of an alert already received (same alert id, or same body within the window): acted on once. */
  duplicate: z.boolean(),
  /** The Order created by an entry alert; null for close alerts, repeats and stale alerts. */
  orderId: z.number().int().nullable(),
  /** Customers the entry was queued for. */
  executions: z.number().int(),
  /** Customers skipped by Receive Webhook Once. */
  skipped: z.number().int(),
  /** Positions a close alert is closing. */
  closing: z.number().int(),
});
export type WebhookAnswer = z.infer<typeof webhookAnswer>;

/** 64 KiB: a TradingView alert message is far smaller. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024;

/**
 * A JSON alert is checked against these before it is parsed: TradingView's alerts are flat objects
 * (at most three levels, a dozen keys), and deeper or larger ones only cost the server work.
 */
export const WEBHOOK_JSON_LIMITS = { maxDepth: 20, maxItems: 1_000 } as const;

export const webhookRoutes = {
  receive: defineRoute({
    method: 'POST',
    path: '/api/webhook/:token',
    access: 'public',
    tag: 'webhooks',
    summary:
      'TradingView alert for one strategy, any content type, at most 64 KiB. Plain text: a non-empty message opens in the strategy direction unless it names an action (close, exit, buy, sell, long, short...). JSON: must carry action (open/entry/long/short/buy/sell/close/exit/flat), order_action / strategy.order.action, or market_position; {} and an empty body are refused, and so is JSON nested deeper than 20 levels or holding more than 1,000 keys and values (400, entry-audit row). Optional alert_id, timestamp, ticker (BTCUSDT.P accepted), price. Answers at once; orders are placed after the answer. Formats with TradingView examples: README.md, Webhook alerts.',
    params: webhookParams,
    data: webhookAnswer,
    bodyLimit: WEBHOOK_BODY_LIMIT,
    rawBody: 'The TradingView alert message: plain text (e.g. "close" or "BTCUSDT.P buy") or JSON (e.g. {"action":"open","alert_id":"{{timenow}}"}), any content type.',
    errors: [ErrorStatus.Forbidden, ErrorStatus.NotFound],
  }),
};
