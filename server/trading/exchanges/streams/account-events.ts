import type { AttachedLeg, PlacedOrder, PositionSide } from '../types';

/**
 * What an account's private stream tells, whichever exchange pushed it (Bybit `order`, `execution`,
 * `position`, `wallet`; Bitget `orders`, `orders-algo`, `positions`, `account`).
 */
export type AccountEvent = OrderEvent | FillEvent | PositionsEvent | WalletEvent;

/** An order's state after a change: placed, (partly) filled, triggered, cancelled. */
export interface OrderEvent {
  type: 'order';
  symbol: string;
  /** Our client order id ('' for orders the exchange made, such as an entry's attached TP/SL). */
  clientOrderId: string;
  exchangeOrderId: string;
  status: PlacedOrder['status'];
  filledQty: number;
  avgPrice: number | undefined;
  /** When the exchange last changed it (ms): an older push never overwrites a newer state. */
  updatedAt: number;
  /**
   * A TP/SL the exchange made from an entry's attached levels (no client id of ours): which position it
   * protects (`hedged`: in hedge mode; `positionSide` undefined: the one-way position whatever its side,
   * as Bitget's presets are), what it is.
   */
  attached?: AttachedLeg & { positionSide: PositionSide | undefined; hedged: boolean };
}

/** One execution: a fill of an order, a liquidation, or a funding payment. */
export interface FillEvent {
  type: 'fill';
  symbol: string;
  clientOrderId: string;
  exchangeOrderId: string;
  /** The exchange's id of this execution (a push delivered twice is booked once). */
  fillId: string;
  quantity: number;
  price: number;
  /** Fee paid (positive) or rebate (negative), in USDT. */
  fee: number;
  kind: 'trade' | 'liquidation' | 'funding' | 'other';
}

/** One side of one symbol's position as it stands now (size 0: flat). */
export interface PositionState {
  symbol: string;
  side: PositionSide;
  size: number;
  entryPrice: number;
  markPrice: number | undefined;
  liquidationPrice: number | undefined;
  /** Held in hedge mode (one position per side), as the REST position says `hedged`. */
  hedged: boolean;
  updatedAt: number;
}

/**
 * Positions after a change. `complete`: the list is every open position of the account (Bitget's
 * positions channel), so any position not in it is flat; otherwise only the positions listed changed
 * (Bybit), a flat one listed with size 0.
 */
export interface PositionsEvent {
  type: 'positions';
  positions: PositionState[];
  complete: boolean;
}

export interface WalletEvent {
  type: 'wallet';
  /** Equity and what is free for new margin, in USDT. */
  equity: number;
  available: number;
}

/** The exchange's numbers come as text; "" and missing fields are undefined. */
export function numberOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}
