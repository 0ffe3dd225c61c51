import { sql, type SQL } from 'drizzle-orm';
import { PAUSE_REASONS, PAUSE_SKIP_MESSAGES } from '../trading/pauses';

/**
 * The reason label of an entry audit, by its text (the audits keep a sentence, not a code): the first
 * pattern (SQL LIKE) that matches, else 'other' (the exchanges' own refusals and the rest). The texts
 * are written in server/trading (pauses.ts, position-sharing.ts, steps/entry.ts, intake.ts);
 * tests/api/metrics.test.ts holds the patterns to them.
 */
export const SKIP_REASON_PATTERNS: ReadonlyArray<readonly [reason: string, like: string]> = [
  [PAUSE_REASONS.platform, PAUSE_SKIP_MESSAGES.platform],
  [PAUSE_REASONS.strategy, PAUSE_SKIP_MESSAGES.strategy],
  [PAUSE_REASONS.customer, PAUSE_SKIP_MESSAGES.customer],
  ['alert too old', 'Webhook alert of % late;%'],
  ['alert refused', 'Webhook alert refused:%'],
  ['receive webhook once', 'Receive Webhook Once is on%'],
  ['position shared', 'The customer already holds %so this entry was skipped'],
  ['entry deadline', 'The entry could not be placed within %'],
];

/** The CASE expression that labels `entry_audits.message`. */
export function skipReasonCase(): SQL {
  const branches = SKIP_REASON_PATTERNS.map(([reason, like]) => sql`when a.message like ${like} then ${reason}`);
  return sql`case ${sql.join(branches, sql` `)} else 'other' end`;
}

/** How far back GET /metrics counts entry skips (read by the audits' time index: a bounded range, never the whole table). */
export const SKIP_WINDOW_MINUTES = 15;
