import { z } from 'zod';
import { defineRoute } from '../route';

export const webhookParams = z.object({
  token: z.string().min(1).max(200),
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

export const webhookRoutes = {
  receive: defineRoute({
    method: 'POST',
    path: '/api/webhook/:token',
    access: 'public',
    tag: 'webhooks',
    summary:
      'TradingView alert for one strategy (JSON or text). Optional action open/long/short/buy/sell/close/exit, market_position flat, alert_id, timestamp, ticker (BTCUSDT.P accepted), price. Answers at once; orders are placed after the answer.',
    params: webhookParams,
    data: webhookAnswer,
    bodyLimit: 64 * 1024,
  }),
};
