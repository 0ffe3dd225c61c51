import type { ExecutionResult } from './ledger';
import { wallet } from './margin';
import type { Account, Fill, Order, Position } from './types';

/** Id and paging sequence of a new record (Sandbox.nextFill). */
export interface FillStamp {
  id: string;
  seq: number;
  time: number;
  markPrice: number;
}

/** Books one order execution (a trade, or the liquidation's takeover) in the account's records. */
export function recordExecution(account: Account, order: Order, result: ExecutionResult, fill: { qty: number; price: number; feeRate: number; maker: boolean }, stamp: FillStamp): Fill {
  const record: Fill = {
    id: stamp.id,
    seq: stamp.seq,
    kind: order.labels.liquidation ? 'liquidation' : 'trade',
    symbol: order.symbol,
    positionIdx: order.positionIdx,
    orderId: order.id,
    clientId: order.clientId,
    side: order.side,
    qty: fill.qty,
    price: fill.price,
    fee: result.fee,
    feeRate: fill.feeRate,
    maker: fill.maker,
    markPrice: stamp.markPrice,
    closedSize: result.closedSize,
    entryPrice: result.entryPrice,
    pnl: result.pnl,
    openFee: result.openFee,
    effect: result.closedSize > 0 ? 'close' : 'open',
    positionSide: result.positionSide,
    walletAfter: wallet(account),
    time: stamp.time,
  };
  account.fills.push(record);
  return record;
}

/** Books a funding settlement of a position: `paid` at `rate` on its value at the mark price. */
export function recordFunding(account: Account, position: Position, paid: number, rate: number, stamp: FillStamp): Fill {
  const record: Fill = {
    id: stamp.id,
    seq: stamp.seq,
    kind: 'funding',
    symbol: position.symbol,
    positionIdx: position.idx,
    orderId: '',
    clientId: '',
    side: position.side === 'short' ? 'sell' : 'buy',
    qty: position.size,
    price: stamp.markPrice,
    fee: paid,
    feeRate: rate,
    maker: false,
    markPrice: stamp.markPrice,
    closedSize: 0,
    entryPrice: position.entryPrice,
    pnl: 0,
    openFee: 0,
    effect: 'open',
    positionSide: position.side ?? 'long',
    walletAfter: wallet(account),
    time: stamp.time,
  };
  account.fills.push(record);
  return record;
}

/** A time window of the exchanges' record endpoints (Bybit: at most 7 days, 7 days back by default). */
export interface Window {
  start: number;
  end: number;
}

/** Records newest first, within the window, after the cursor (a seq: the page continues below it), at most `limit`. */
export function page<T extends { seq: number; time: number }>(rows: T[], window: Window, cursor: number | undefined, limit: number): { rows: T[]; next: number | undefined } {
  const chosen: T[] = [];
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index] as T;
    if (cursor !== undefined && row.seq >= cursor) continue;
    if (row.time < window.start || row.time > window.end) continue;
    if (chosen.length === limit) return { rows: chosen, next: (chosen[chosen.length - 1] as T).seq };
    chosen.push(row);
  }
  return { rows: chosen, next: undefined };
}
