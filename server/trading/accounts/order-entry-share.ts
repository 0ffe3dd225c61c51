import type { OrderEntryWindow } from '../exchanges/types';
import type { AccountLeases } from './leases';

/**
 * Bybit counts the socket orders of an address together, whichever process sends them (3,000 a second,
 * docs/v5/websocket/trade/guideline.mdx): the live workers sending them from one address (the peers
 * each lease round counts) take equal parts of the window. A worker takes a smaller part as soon as it
 * counts one more peer, and a larger one when a peer is gone (a stopped worker removed its heartbeat, a
 * dead one has sent nothing since it lapsed). A worker that finds peers at its first round sends no
 * socket order (REST carries them) until `settleMs` has passed, by when each peer has had a round of
 * its own to count it: until then they may still be using the larger part.
 */
export function shareOrderEntryWindows(leases: AccountLeases, windows: readonly OrderEntryWindow[], settleMs: number, now: () => number = () => performance.now()): void {
  let settledAt = 0;
  leases.onOrderEntryPeers((peers, firstRound) => {
    if (firstRound && peers > 1) settledAt = now() + settleMs;
    const part = now() < settledAt ? 0 : 1 / Math.max(1, peers);
    for (const window of windows) window.share(part);
  });
}
