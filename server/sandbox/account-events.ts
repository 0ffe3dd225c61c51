import type { Account, Order, Position } from './types';

/** Why an order event was raised: the exchanges push an order on each of these. */
export type OrderChange = 'created' | 'filled' | 'triggered' | 'activated' | 'cancelled' | 'rejected' | 'amended';

/** Bybit's execType (docs/v5/enum.mdx): a trade, a funding payment, a takeover liquidation, an auto-deleveraging. */
export type ExecType = 'Trade' | 'Funding' | 'BustTrade' | 'AdlTrade';

/** One execution of an order, as both exchanges report it (Bybit execution topic, Bitget fill fields of an order push). */
export interface Fill {
  /** Bybit execId (a UUID), Bitget tradeId (digits). */
  id: string;
  qty: number;
  price: number;
  /** Fee charged (positive = paid). */
  fee: number;
  feeRate: number;
  isMaker: boolean;
  /** Part of the fill that reduced the position. */
  closedSize: number;
  /** Gross PnL of the reduced part (before fees). */
  pnl: number;
  execType: ExecType;
  time: number;
  /** Cross sequence, per symbol (Bybit execution/position `seq`). */
  seq: number;
}

/**
 * A change of one account's state, raised once by the engine at the mutation that made it; the private
 * streams (streams/hub.ts) turn it into each exchange's frames. Carries live objects: an encoder must read
 * them at once (frames are snapshots).
 */
export type AccountEvent =
  | { type: 'order'; order: Order; change: OrderChange; fill?: Fill }
  | { type: 'execution'; order: Order; fill: Fill }
  | { type: 'position'; position: Position }
  | { type: 'wallet' };

/** Where the engine raises account events; cheap when nobody listens to the account. */
export interface AccountEvents {
  emit(account: Account, event: AccountEvent): void;
}

export const noAccountEvents: AccountEvents = { emit: () => undefined };
