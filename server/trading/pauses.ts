/**
 * The entry-audit texts of the kill switches (issue 29), handed to the intake's SQL functions in
 * `p_messages.paused` (server/db/functions/alert-intake.sql): an entry alert of a paused strategy or while
 * the platform is paused is audited once and opens no Order; a paused customer is skipped like any
 * other skipped customer of an Order. The reason each ends with is what the guard-skip metric counts.
 */
export const PAUSE_REASONS = {
  platform: 'platform paused',
  strategy: 'strategy paused',
  customer: 'customer paused',
} as const;

export type PauseScope = keyof typeof PAUSE_REASONS;

export const PAUSE_SKIP_MESSAGES: Record<PauseScope, string> = {
  platform: `Webhook alert skipped: ${PAUSE_REASONS.platform}`,
  strategy: `Webhook alert skipped: ${PAUSE_REASONS.strategy}`,
  customer: `Entry skipped: ${PAUSE_REASONS.customer}`,
};
