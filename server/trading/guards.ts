import type { PositionSide } from './exchanges/types';
import { expectedFill, type Quote } from './prices';

/**
 * The slippage guard (issue 29): an entry whose expected fill at sending (the ask for a long, the bid
 * for a short) is further from the alert's `price` than the strategy's maximum, in basis points of that
 * price, is skipped. The audit text starts with SLIPPAGE_SKIP_PREFIX (the guard-skip metric counts it).
 */
export const SLIPPAGE_SKIP_PREFIX = 'Entry skipped: the price moved';

/** Basis points between the alert's price and the expected fill (1 bp = 0.01 %), rounded to 0.1. */
export function movedBps(alertPrice: number, fill: number): number {
  return Math.round((Math.abs(fill - alertPrice) / alertPrice) * 100_000) / 10;
}

/** The audit text of an entry the guard skips, or null when the expected fill is within the limit. */
export function slippageRefusal(alertPrice: number, quote: Quote, side: PositionSide, maxBps: number): string | null {
  const fill = expectedFill(quote, side);
  const moved = movedBps(alertPrice, fill);
  if (moved <= maxBps) return null;
  return `${SLIPPAGE_SKIP_PREFIX} ${moved} bp from the alert's ${alertPrice} (expected fill ${fill}; at most ${maxBps} bp)`;
}

/**
 * A customer's guards (issue 29): the start of every audit text of an entry one of them skipped, and the
 * part that names which (the guard-skip metric counts each by its own reason).
 */
export const CUSTOMER_GUARD_SKIP_PREFIX = "Entry skipped: this customer's guard";
export const CUSTOMER_GUARD_TEXTS = {
  leverage: `${CUSTOMER_GUARD_SKIP_PREFIX} allows at most`,
  notional: `${CUSTOMER_GUARD_SKIP_PREFIX} limits one entry to`,
  positions: `${CUSTOMER_GUARD_SKIP_PREFIX} allows at most`,
  balance: `${CUSTOMER_GUARD_SKIP_PREFIX} keeps at least`,
} as const;

export const leverageRefusal = (maxLeverage: number, leverage: number, strategyId: string): string | null =>
  leverage <= maxLeverage ? null : `${CUSTOMER_GUARD_TEXTS.leverage} ${maxLeverage}x leverage; strategy ${strategyId} trades at ${leverage}x`;

/** Notional in whole USDT, rounded up (an entry worth 500.4 USDT is over a 500 limit). */
export function notionalRefusal(maxNotionalUsdt: number, quantity: number, price: number, symbol: string): string | null {
  const notional = quantity * price;
  if (notional <= maxNotionalUsdt) return null;
  return `${CUSTOMER_GUARD_TEXTS.notional} ${maxNotionalUsdt} USDT; this one is worth ${Math.ceil(notional)} USDT (${quantity} ${symbol} at ${price})`;
}

/** `open`: positions (symbol and side) the platform holds on the account; `joins`: this entry adds to one of them. */
export const positionsRefusal = (maxOpenPositions: number, open: number, joins: boolean): string | null =>
  joins || open < maxOpenPositions ? null : `${CUSTOMER_GUARD_TEXTS.positions} ${maxOpenPositions} open positions; ${open} are open`;

/** `free`: the account's free USDT as the exchange reports it; null when it could not be read. */
export function balanceRefusal(minFreeBalanceUsdt: number, free: number | null): string | null {
  if (free === null) return `${CUSTOMER_GUARD_TEXTS.balance} ${minFreeBalanceUsdt} USDT free; the balance could not be read from the exchange`;
  if (free >= minFreeBalanceUsdt) return null;
  return `${CUSTOMER_GUARD_TEXTS.balance} ${minFreeBalanceUsdt} USDT free; the account has ${Math.floor(free * 100) / 100} USDT free`;
}
