import { parseClientOrderId } from '../client-order-id';
import type { AccountNews } from '../types';
import type { StreamNews } from './account-streams';

/**
 * Legs whose end the engine learns from its own step and need no wake-up: the entry ('e') and the close
 * rounds ('x', 'xr1', ...) are followed by the step that sent them.
 */
const followedBySender = (leg: string) => leg === 'e' || leg === 'x' || /^xr\d+$/.test(leg);
const finished = (status: string) => status === 'closed' || status === 'canceled' || status === 'rejected';

/** What a stream's news asks the engine to look at again now (null: nothing). */
export function newsOf(news: StreamNews): AccountNews | null {
  if (news.kind === 'lost') return null;
  if (news.kind === 'caught-up') return news.first ? null : { clientOrderIds: [], symbols: [], resynced: true };
  const clientOrderIds: string[] = [];
  const symbols = new Set<string>();
  for (const order of news.changes.orders) {
    if (!finished(order.status)) continue;
    const ours = order.clientOrderId ? parseClientOrderId(order.clientOrderId) : null;
    if (ours && !followedBySender(ours.leg)) clientOrderIds.push(order.clientOrderId);
    // An order not of ours (an entry's attached TP/SL, the customer's, the exchange's) ended: its position is looked at.
    else if (!ours) symbols.add(order.symbol);
  }
  for (const { state, before } of news.changes.positions) if (state.size < before) symbols.add(state.symbol);
  if (clientOrderIds.length === 0 && symbols.size === 0) return null;
  return { clientOrderIds, symbols: [...symbols], resynced: false };
}
