import type { Order } from '../../../contract/api/order';

/** How long the popup follows a close before it says how far it got (the engine closes asynchronously). */
export const CLOSE_FOLLOW_LIMIT_MS = 30_000;
/** How often the order is read again meanwhile. */
export const CLOSE_FOLLOW_EVERY_MS = 1_000;

/**
 * Reads the order again until its close is over (`closing` false) or `limitMs` has passed; answers
 * the last reading. `stopped()` ends the wait early (the screen went away).
 */
export async function followClose(first: Order, read: () => Promise<Order>, options: { limitMs?: number; everyMs?: number; stopped?: () => boolean } = {}): Promise<Order> {
  const { limitMs = CLOSE_FOLLOW_LIMIT_MS, everyMs = CLOSE_FOLLOW_EVERY_MS, stopped = () => false } = options;
  const until = Date.now() + limitMs;
  let latest = first;
  while (latest.closing && Date.now() < until && !stopped()) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    latest = await read();
  }
  return latest;
}

export type CloseOutcome = { kind: 'closed' } | { kind: 'partly'; closed: number; total: number };

/** 'Position closed successfully!' only when the close is over and no position is left open. */
export function closeOutcomeOf(order: Order): CloseOutcome {
  const progress = order.closeProgress;
  if (!order.closing && (!progress || progress.open === 0)) return { kind: 'closed' };
  return { kind: 'partly', closed: progress?.closed ?? 0, total: progress?.total ?? 0 };
}
