import { ExitType } from '../../contract/enums';
import { legLabel, type LegKind } from './legs';

/**
 * The sentences of the exit audit, written by the engine's steps (and by the demo seeding, which
 * replays history through the same transitions).
 */

const who = (exitType: number | null) =>
  exitType === ExitType.ByAdmin ? 'by admin' : exitType === ExitType.Customer ? 'by the customer' : 'by a close signal';

/** A leg filled while the position stays open. */
export const legFilledMessage = (kind: LegKind, quantity: number, symbol: string, price: number) =>
  `${legLabel[kind]} filled: ${quantity} ${symbol} at ${price}`;

/** A leg's fill as part of the sentence that closes the position. */
export const legClosedMessage = (kind: LegKind, legPrice: number, quantity: number, symbol: string, price: number) =>
  `${legLabel[kind]} at ${legPrice} closed ${quantity} ${symbol} at ${price}`;

/** A requested close (by admin, by signal) done at market; `detail` says what filled. */
export const closedAtMarketMessage = (exitType: number | null, detail: string) => `Position closed ${who(exitType)} at market: ${detail}`;

/** The reconciler found a leg the exchange no longer has (cancelled outside the platform) and says what it did. */
export const legLostMessage = (kind: LegKind, price: number, quantity: number, symbol: string, done: string) =>
  `${legLabel[kind]} at ${price}${quantity > 0 ? ` for ${quantity} ${symbol}` : ` (${symbol}, whole position)`} was no longer on the exchange (cancelled outside the platform): ${done}`;

/** A requested close the order book could not fill in full: what is left keeps its stop and is closed later. */
export const closeIncompleteMessage = (exitType: number | null, left: number, symbol: string) =>
  `Position close ${who(exitType)} not complete: the exchange's order book did not fill it, ${left} ${symbol} stays open with its stop and is sent to close again until it is flat`;

/** What the exchange closed outside the platform's own orders. */
export const closedOutsideMessage = (quantity: number, symbol: string, price: number) =>
  `${quantity} ${symbol} was closed on the exchange outside the platform (by the customer), at about ${price}`;

export const liquidatedMessage = (quantity: number, symbol: string, price: number) =>
  `${quantity} ${symbol} was liquidated by the exchange: taken over at ${price}, its bankruptcy price`;

/**
 * The last exit audit of a position ends with its realized PnL, net of the fees and funding the exchange's records
 * show (LIVE-FIDELITY D12), or said to be before them when those could not be read.
 */
export function withRealizedPnl(how: string, realizedPnl: number, costs: { fees: number; funding: number } | null): string {
  const net = costs ? `after fees ${costs.fees.toFixed(2)} and funding ${costs.funding.toFixed(2)} USDT` : 'before fees and funding (the exchange\'s records of them could not be read)';
  return `${how}; realized PnL ${realizedPnl.toFixed(2)} USDT ${net}`;
}
