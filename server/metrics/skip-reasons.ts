import { CUSTOMER_GUARD_TEXTS, SLIPPAGE_SKIP_PREFIX } from '../trading/guards';
import { PAUSE_REASONS, PAUSE_SKIP_MESSAGES } from '../trading/pauses';

/**
 * The reason label of an entry audit, by its text (the audits keep a sentence, not a code): the first
 * pattern (SQL LIKE syntax: % any text) that matches, else 'other' (the exchanges' own refusals and the
 * rest). The texts are written in server/trading (pauses.ts, position-sharing.ts, steps/entry.ts,
 * guards.ts, intake.ts); tests/api/metrics.test.ts holds the patterns to them.
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
  ['slippage', `${SLIPPAGE_SKIP_PREFIX}%`],
  ['max leverage', `${CUSTOMER_GUARD_TEXTS.leverage} %x leverage;%`],
  ['max notional', `${CUSTOMER_GUARD_TEXTS.notional} %`],
  ['max open positions', `${CUSTOMER_GUARD_TEXTS.positions} % open positions;%`],
  ['min free balance', `${CUSTOMER_GUARD_TEXTS.balance} %`],
];

const likeToRegExp = (like: string) => new RegExp(`^${like.split('%').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's');
const PATTERNS = SKIP_REASON_PATTERNS.map(([reason, like]) => [reason, likeToRegExp(like)] as const);

export function skipReasonOf(message: string): string {
  return PATTERNS.find(([, pattern]) => pattern.test(message))?.[0] ?? 'other';
}

/**
 * Counts per distinct audit text (the database groups them: most are the same few sentences) summed
 * per reason here; texts past the database's answer limit are counted as 'other'.
 */
export function countByReason(byMessage: Record<string, number | string> | null, total: number | string): Record<string, number> {
  const counts: Record<string, number> = {};
  let counted = 0;
  for (const [message, n] of Object.entries(byMessage ?? {})) {
    const reason = skipReasonOf(message);
    counts[reason] = (counts[reason] ?? 0) + Number(n);
    counted += Number(n);
  }
  if (Number(total) > counted) counts.other = (counts.other ?? 0) + Number(total) - counted;
  return counts;
}

/** How far back GET /metrics counts entry skips (read by the audits' time index: a bounded range, never the whole table). */
export const SKIP_WINDOW_MINUTES = 15;
/** Distinct audit texts the scrape reads at most (the most frequent); the others count as 'other'. */
export const SKIP_MESSAGES_READ = 200;
