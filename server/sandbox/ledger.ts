import { USDT } from './margin';
import type { Account, Position, Side } from './types';

/** What one execution did to a position and the wallet (the makings of its Fill record). */
export interface ExecutionResult {
  fee: number;
  /** The execution left the position flat. */
  closed: boolean;
  /** Size it closed, at the position's average entry, with its gross PnL (before fees) and its share of the opening fees. */
  closedSize: number;
  entryPrice: number;
  pnl: number;
  openFee: number;
  /** The position side it opened or closed. */
  positionSide: 'long' | 'short';
}

/**
 * Moves a position and the wallet by one execution of `qty` at `price` (a volume-weighted price when the
 * taker swept several levels: the position and the PnL come out the same). Answers the fee charged, what
 * the execution closed and whether it left the position flat.
 */
export function applyExecution(account: Account, position: Position, side: Side, qty: number, price: number, feeRate: number, now: number): ExecutionResult {
  const direction = side === 'buy' ? 'long' : 'short';
  const fee = qty * price * feeRate;
  const result: ExecutionResult = { fee, closed: false, closedSize: 0, entryPrice: position.entryPrice, pnl: 0, openFee: 0, positionSide: position.side ?? direction };
  let rest = qty;
  if (position.side && position.side !== direction) {
    const reduced = Math.min(rest, position.size);
    result.closedSize = reduced;
    result.pnl = reduced * (price - position.entryPrice) * (position.side === 'long' ? 1 : -1);
    result.openFee = position.size > 0 ? (position.openFee * reduced) / position.size : 0;
    position.openFee -= result.openFee;
    position.size = Number((position.size - reduced).toFixed(10));
    rest = Number((rest - reduced).toFixed(10));
    if (position.size === 0) {
      position.side = null;
      position.entryPrice = 0;
      position.openFee = 0;
      result.closed = true;
    }
  }
  if (rest > 0) openPart(position, direction, rest, price, (fee * rest) / qty, now);
  account.balances.set(USDT, (account.balances.get(USDT) ?? 0) + result.pnl - fee);
  position.realisedPnl += result.pnl - fee;
  position.cumRealisedPnl += result.pnl - fee;
  position.updatedAt = now;
  return result;
}

function openPart(position: Position, direction: 'long' | 'short', qty: number, price: number, fee: number, now: number): void {
  if (!position.side) {
    position.side = direction;
    position.entryPrice = price;
    position.size = qty;
    position.realisedPnl = 0;
    position.openFee = 0;
    position.createdAt = now;
  } else {
    position.entryPrice = (position.entryPrice * position.size + price * qty) / (position.size + qty);
    position.size = Number((position.size + qty).toFixed(10));
  }
  position.openFee += fee;
}

/** Funding settlement: `paid` (negative when received) leaves the wallet and counts in the position's realised PnL, as both exchanges book it. */
export function applyFunding(account: Account, position: Position, paid: number, now: number): void {
  account.balances.set(USDT, (account.balances.get(USDT) ?? 0) - paid);
  position.realisedPnl -= paid;
  position.cumRealisedPnl -= paid;
  position.updatedAt = now;
}
