import { ApiError, text } from '../http-types';
import { formatNumber as num } from '../markets';
import type { PriceKind } from '../prices';
import type { Strictness } from '../strictness';
import type { Account, MarginMode, Position } from '../types';
import { isOpen } from '../types';
import { paramError } from './errors';

/**
 * Bitget's refusals, with the codes and texts of its contract REST error list
 * (bitget.com/api-doc/contract/error-code/restapi). The list names no endpoint per code: where a code is
 * used is written beside it (README "Bitget codes").
 */

export const tpslPlanTypes = ['profit_plan', 'loss_plan', 'pos_profit', 'pos_loss', 'moving_plan'];
export const triggerPlanTypes = ['normal_plan', 'track_plan'];

/** Trigger orders (40889) and TP/SL orders (40890) per account and symbol; Bitget's number is not published, 10 as Bybit's. */
export const MAX_PLANS_PER_SYMBOL = 10;

export function checkPlanRoom(account: Account, symbol: string, planType: string): void {
  const family = tpslPlanTypes.includes(planType) ? tpslPlanTypes : triggerPlanTypes;
  const open = account.orders.filter((order) => order.symbol === symbol && isOpen(order) && family.includes(order.labels.planType ?? '')).length;
  if (open < MAX_PLANS_PER_SYMBOL) return;
  if (family === tpslPlanTypes) throw new ApiError('40890', 'The order of stop-profit and stop-loss for this contract has reached the upper limit');
  throw new ApiError('40889', 'The plan order of this contract has reached the upper limit');
}

export type TriggerType = 'mark_price' | 'fill_price';

export function triggerTypeOf(value: unknown): TriggerType {
  const given = text(value)?.toLowerCase();
  if (given === undefined || given === '' || given === 'mark_price') return 'mark_price';
  if (given === 'fill_price') return 'fill_price';
  throw paramError('triggerType must be fill_price or mark_price');
}

/** The price a triggerType watches: fill_price the last traded price, mark_price the mark price. */
export function priceKindOfTrigger(triggerType: TriggerType): PriceKind {
  return triggerType === 'mark_price' ? 'mark' : 'last';
}

/**
 * `marginCoin` is required on every order placement (Place-Order, Place-Plan-Order, Place-Tpsl-Order,
 * Place-Pos-Tpsl, Modify-Tpsl-Order: "marginCoin ... Yes"). Missing: the error list's 40019 "Parameter {0}
 * cannot be empty"; another coin than USDT on USDT-FUTURES: 43049 "Margin coin is not allowed".
 */
export function requireMarginCoin(value: unknown): void {
  const coin = text(value);
  if (coin === undefined || coin === '') throw new ApiError('40019', 'Parameter marginCoin cannot be empty');
  if (coin.toUpperCase() !== 'USDT') throw new ApiError('43049', 'Margin coin is not allowed');
}

/**
 * A take-profit or stop-loss trigger on the wrong side of the market for a long or short position. The
 * mark-price texts (40915, 40917, 45122) for triggerType mark_price, the current-price ones (40830, 40834,
 * 40836) for fill_price and for the presets of place-order; a short's take-profit has one text (40832).
 */
export function checkTriggerSide(long: boolean, leg: 'tp' | 'sl', trigger: number, current: number, triggerType: TriggerType): void {
  const mark = triggerType === 'mark_price';
  if (long && leg === 'tp' && !(trigger > current)) {
    throw mark ? new ApiError('40915', 'Long position take profit price please > mark price') : new ApiError('40830', 'The take profit price of the long position should be greater than the current price');
  }
  if (long && leg === 'sl' && !(trigger < current)) {
    throw mark ? new ApiError('40917', `Stop price for long positions please < mark price ${num(current)}`) : new ApiError('40834', 'The stop loss price of the long position should be less than the current price');
  }
  if (!long && leg === 'sl' && !(trigger > current)) {
    throw mark ? new ApiError('45122', `Short position stop loss price please > mark price ${num(current)}`) : new ApiError('40836', 'The stop loss price of the short position should be greater than the current price');
  }
  if (!long && leg === 'tp' && !(trigger < current)) throw new ApiError('40832', 'The take profit price of short positions should be less than the current price');
}

/** 40833/40835 (strictness bitgetStopAtEntryRefused): a stop loss at or beyond the position's average open price. */
export function checkStopBeforeEntry(position: Position, trigger: number, strictness: Strictness): void {
  if (!strictness.bitgetStopAtEntryRefused || !position.side) return;
  if (position.side === 'long' && trigger >= position.entryPrice) throw new ApiError('40833', 'The stop loss price of a long position should be less than the average opening price');
  if (position.side === 'short' && trigger <= position.entryPrice) throw new ApiError('40835', 'The stop loss price of the short position should be greater than the average opening price');
}

/** A position or an open order (plans included) on the symbol, or on the whole product without one. */
export function holdsAnything(account: Account, symbol?: string): boolean {
  return (
    [...account.positions.values()].some((position) => position.side && (!symbol || position.symbol === symbol)) ||
    account.orders.some((order) => isOpen(order) && (!symbol || order.symbol === symbol))
  );
}

/**
 * The `marginMode` every place-order and place-plan-order carries (required): it acts per order, so a mode
 * other than the symbol's switches the symbol, unless a position or an order is open there (45117, ccxt
 * issue 21435). A missing one is refused as a parameter failure (400172, as Bitget answers V2 place-order
 * without it). Answers the mode to record once the order is accepted.
 */
export function orderMarginMode(account: Account, symbol: string, value: unknown): MarginMode {
  const given = text(value);
  if (given === undefined || given === '') throw new ApiError('400172', 'Parameter verification failed');
  if (given !== 'isolated' && given !== 'crossed') throw paramError('marginMode must be isolated or crossed');
  const wanted: MarginMode = given === 'isolated' ? 'isolated' : 'cross';
  const current = account.marginModes.get(symbol) ?? account.defaultMarginMode;
  if (wanted !== current && holdsAnything(account, symbol)) throw new ApiError('45117', 'Currently holding positions or orders, the margin mode cannot be adjusted');
  return wanted;
}

export function marginModeOf(account: Account, symbol: string): MarginMode {
  return account.marginModes.get(symbol) ?? account.defaultMarginMode;
}
