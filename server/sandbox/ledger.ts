import { USDT } from './margin';
import type { Account, Position, Side } from './types';

export interface ExecutionResult {
  fee: number;
  /** The execution left the position flat. */
  closed: boolean;
  /** Part of the execution that reduced the position, and its gross PnL (before fees). */
  closedSize: number;
  pnl: number;
}

/**
 * Moves a position and the wallet by one execution of `qty` at `price` (a volume-weighted price when the
 * taker swept several levels: the position and the PnL come out the same). Answers the fee charged, what
 * the execution closed and whether it left the position flat.
 */
export function applyExecution(account: Account, position: Position, side: Side, qty: number, price: number, feeRate: number, now: number): ExecutionResult {
  const direction = side === 'buy' ? 'long' : 'short';
  let pnl = 0;
  let rest = qty;
  let closed = false;
  let reduced = 0;
  if (position.side && position.side !== direction) {
    reduced = Math.min(rest, position.size);
    pnl = reduced * (price - position.entryPrice) * (position.side === 'long' ? 1 : -1);
    position.size = Number((position.size - reduced).toFixed(10));
    rest = Number((rest - reduced).toFixed(10));
    if (position.size === 0) {
      position.side = null;
      position.entryPrice = 0;
      closed = true;
    }
  }
  if (rest > 0) {
    if (!position.side) {
      position.side = direction;
      position.entryPrice = price;
      position.size = rest;
      position.realisedPnl = 0;
      position.createdAt = now;
    } else {
      position.entryPrice = (position.entryPrice * position.size + price * rest) / (position.size + rest);
      position.size = Number((position.size + rest).toFixed(10));
    }
  }
  const fee = qty * price * feeRate;
  account.balances.set(USDT, (account.balances.get(USDT) ?? 0) + pnl - fee);
  position.realisedPnl += pnl - fee;
  position.cumRealisedPnl += pnl - fee;
  position.updatedAt = now;
  return { fee, closed, closedSize: reduced, pnl };
}
