import type { Account, Fill, Order, Position } from './types';

/** Why an order event was raised: the exchanges push an order on each of these. */
export type OrderChange = 'created' | 'filled' | 'triggered' | 'activated' | 'cancelled' | 'rejected' | 'amended';

/** Bybit's execType (docs/v5/enum.mdx): a trade, a funding payment, a takeover liquidation, an auto-deleveraging. */
export type ExecType = 'Trade' | 'Funding' | 'BustTrade' | 'AdlTrade';

/** An execution record's Bybit execType: REST execution/list and the execution topic say the same. */
export function execTypeOf(fill: Fill): ExecType {
  return fill.kind === 'funding' ? 'Funding' : fill.kind === 'liquidation' ? 'BustTrade' : 'Trade';
}

/**
 * A change of one account's state, raised once by the engine at the mutation that made it; the private
 * streams (streams/hub.ts) turn it into each exchange's frames. Carries live objects: an encoder must read
 * them at once (frames are snapshots). An execution is the account's own record of it (types.ts `Fill`, the
 * one REST's execution lists read): a trade or a liquidation with its order, a funding settlement without one.
 */
export type AccountEvent =
  | { type: 'order'; order: Order; change: OrderChange; fill?: Fill }
  | { type: 'execution'; order?: Order; fill: Fill }
  | { type: 'position'; position: Position }
  | { type: 'wallet' };

/** Where the engine raises account events; cheap when nobody listens to the account. */
export interface AccountEvents {
  emit(account: Account, event: AccountEvent): void;
}

export const noAccountEvents: AccountEvents = { emit: () => undefined };
