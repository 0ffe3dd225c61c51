import { feeRates, type Engine } from './engine';
import { leverageOf, marginSummary } from './margin';
import type { Account, Order } from './types';

/**
 * Whether the account's available margin carries a triggered conditional order: an opening one needs its
 * initial margin and the taker fee, a closing one the fee to close (Bybit: "the conditional order does not
 * occupy the margin. If the margin is insufficient after the conditional order is triggered, the order will be
 * cancelled", create-order.mdx). The control's `marginShort` makes every such check fail (tests of D4).
 */
export function conditionalAffordable(engine: Engine, account: Account, order: Order): boolean {
  if (account.marginShort) return false;
  const price = order.type === 'limit' ? order.price : engine.last(order.symbol);
  const qty = order.qty - order.filledQty;
  const fee = qty * price * feeRates[account.exchange].taker;
  const side = order.side === 'buy' ? 'long' : 'short';
  const cost = order.reduceOnly ? fee : (qty * price) / leverageOf(account, order.symbol, order.positionIdx, side) + fee;
  const { available } = marginSummary(account, (symbol) => engine.mark(symbol));
  return available >= cost - 1e-9;
}
