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
