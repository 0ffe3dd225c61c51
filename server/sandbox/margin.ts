import type { Account, Order, Position, PositionIdx } from './types';
import { isOpen } from './types';

export const USDT = 'USDT';

export function leverageOf(account: Account, symbol: string, idx: PositionIdx, side: 'long' | 'short' | null): number {
  const entry = account.leverage.get(symbol) ?? { long: 10, short: 10 };
  if (idx === 2 || side === 'short') return entry.short;
  return entry.long;
}

export function wallet(account: Account, coin = USDT): number {
  return account.balances.get(coin) ?? 0;
}

export function unrealisedOf(position: Position, mark: number): number {
  if (!position.side || position.size === 0) return 0;
  const direction = position.side === 'long' ? 1 : -1;
  return position.size * (mark - position.entryPrice) * direction;
}

export function positionMargin(account: Account, position: Position): number {
  if (!position.side) return 0;
  return (position.size * position.entryPrice) / leverageOf(account, position.symbol, position.idx, position.side);
}

/** Margin held by resting orders that would open or add to a position. */
export function orderMargin(account: Account, order: Order): number {
  if (!isOpen(order) || order.reduceOnly || order.kind !== 'normal' || order.type !== 'limit') return 0;
  const side = order.side === 'buy' ? 'long' : 'short';
  return ((order.qty - order.filledQty) * order.price) / leverageOf(account, order.symbol, order.positionIdx, side);
}

export interface MarginSummary {
  wallet: number;
  unrealised: number;
  equity: number;
  positionIM: number;
  orderIM: number;
  available: number;
}

export function marginSummary(account: Account, markOf: (symbol: string) => number): MarginSummary {
  let unrealised = 0;
  let positionIM = 0;
  for (const position of account.positions.values()) {
    if (!position.side) continue;
    unrealised += unrealisedOf(position, markOf(position.symbol));
    positionIM += positionMargin(account, position);
  }
  const orderIM = account.orders.reduce((sum, order) => sum + orderMargin(account, order), 0);
  const balance = wallet(account);
  const equity = balance + unrealised;
  return { wallet: balance, unrealised, equity, positionIM, orderIM, available: equity - positionIM - orderIM };
}
