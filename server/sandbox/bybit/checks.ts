import { ApiError, text } from '../http-types';
import { formatNumber as num } from '../markets';
import type { PriceKind } from '../prices';
import type { Account, Position, PositionIdx } from '../types';
import { isOpen } from '../types';
import { paramError } from './errors';

/**
 * Bybit's refusals of protection on the wrong side of the market. Sources: docs/v5/error.mdx (10001,
 * 110092, 110093, 110009, 110061, 34040) and docs/v5/order/create-order.mdx of bybit-exchange/docs; the
 * 10001 texts as Bybit answers them (ccxt issue 19089 and public bot logs: "StopLoss:... set for Buy position
 * should lower than base_price:...??LastPrice"). Bybit prints prices as scaled integers; the sandbox prints
 * plain decimals. Each trigger is compared with the price its triggerBy names (LastPrice by default).
 */

export type TriggerBy = 'LastPrice' | 'MarkPrice' | 'IndexPrice';

export function triggerByOf(value: unknown): TriggerBy {
  const given = text(value);
  if (given === undefined || given === '') return 'LastPrice';
  if (given === 'LastPrice' || given === 'MarkPrice' || given === 'IndexPrice') return given;
  throw paramError('triggerBy must be LastPrice, MarkPrice or IndexPrice');
}

const kindOfTrigger: Record<TriggerBy, PriceKind> = { LastPrice: 'last', MarkPrice: 'mark', IndexPrice: 'index' };

export function priceKindOf(triggerBy: TriggerBy): PriceKind {
  return kindOfTrigger[triggerBy];
}

export function triggerByText(kind: PriceKind): TriggerBy {
  return kind === 'mark' ? 'MarkPrice' : kind === 'index' ? 'IndexPrice' : 'LastPrice';
}

/** One side of a protection: its price (0 or none: not checked), the base it must clear and the price type named. */
export interface ProtectionLeg {
  price: number | undefined;
  base: number;
  by: TriggerBy;
}

/** 10001: TP/SL of a long (Buy) or short (Sell) position against base_price (the price its triggerBy names, or the entry's limit price). */
export function checkProtectionSide(side: 'long' | 'short', tp: ProtectionLeg, sl: ProtectionLeg): void {
  const long = side === 'long';
  if (tp.price && !(long ? tp.price > tp.base : tp.price < tp.base)) {
    const relation = long ? 'should be higher than' : 'should be lower than';
    throw new ApiError('10001', `TakeProfit:${num(tp.price)} set for ${long ? 'Buy' : 'Sell'} position ${relation} base_price:${num(tp.base)}??${tp.by}`);
  }
  if (sl.price && !(long ? sl.price < sl.base : sl.price > sl.base)) {
    const relation = long ? 'should lower than' : 'should greater';
    throw new ApiError('10001', `StopLoss:${num(sl.price)} set for ${long ? 'Buy' : 'Sell'} position ${relation} base_price:${num(sl.base)}??${sl.by}`);
  }
}

/**
 * 10001: a trailing stop's activation price must lie beyond the entry and the last price on the profit side
 * (Bybit answers "TrailingProfit:... set for Sell position should be less than entry_price:...??LastPrice and last_price:...").
 */
export function checkTrailingActivation(position: Position, last: number, activePrice: number): void {
  const long = position.side === 'long';
  if (long ? activePrice > position.entryPrice && activePrice > last : activePrice < position.entryPrice && activePrice < last) return;
  const relation = long ? 'greater' : 'less';
  throw new ApiError(
    '10001',
    `TrailingProfit:${num(activePrice)} set for ${long ? 'Buy' : 'Sell'} position should be ${relation} than entry_price:${num(position.entryPrice)}??LastPrice and last_price:${num(last)}`,
  );
}

/** 110092/110093: a conditional order whose trigger the market has already passed in its direction. */
export function checkTriggerAhead(direction: 0 | 1 | 2, trigger: number, current: number, triggerBy: TriggerBy): void {
  if (direction === 1 && trigger <= current) throw new ApiError('110092', `expect Rising, but trigger_price[${num(trigger)}] <= current[${num(current)}]??${triggerBy}`);
  if (direction === 2 && trigger >= current) throw new ApiError('110093', `expect Falling, but trigger_price[${num(trigger)}] >= current[${num(current)}]??${triggerBy}`);
}

/** Conditional orders per account and symbol: "each account can hold a maximum of 10 active orders" (create-order.mdx). */
export const MAX_CONDITIONAL_ORDERS = 10;
/** Partial-mode TP/SL per position (110061). */
export const MAX_PARTIAL_TPSL = 20;

export function checkConditionalRoom(account: Account, symbol: string): void {
  const open = account.orders.filter((order) => order.symbol === symbol && order.kind === 'conditional' && isOpen(order)).length;
  if (open >= MAX_CONDITIONAL_ORDERS) throw new ApiError('110009', 'The number of stop orders exceeds maximum limit allowed');
}

export function checkPartialRoom(account: Account, symbol: string, idx: PositionIdx, adding: number): void {
  const open = account.orders.filter((order) => order.symbol === symbol && order.positionIdx === idx && order.kind === 'tpsl' && order.tpslMode === 'Partial' && isOpen(order)).length;
  if (open + adding > MAX_PARTIAL_TPSL) throw new ApiError('110061', 'Not allowed to have more than 20 TP/SLs under Partial tpSlMode');
}

/** 34040: a Full-mode trading-stop that changes nothing (or sets nothing). */
export function notModified(): ApiError {
  return new ApiError('34040', 'Not modified');
}
