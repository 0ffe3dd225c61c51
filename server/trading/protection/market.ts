import type { ExecutionContext } from '../context';
import { executionClientOrderId } from '../ids';
import { legLabel, type ExecutionLeg } from '../legs';
import { pnlOf, settle, type Session } from '../steps/session';
import type { WantedLeg } from './wanted';

const round8 = (value: number) => Number(value.toFixed(8));

/**
 * A take-profit whose level the market has already passed is taken at market: reduce-only, this leg's
 * size only, with a client id of its own (a retry finds it). Books the fill; null when the position is gone.
 */
export async function takeAtMarket(ctx: ExecutionContext, session: Session, wanted: WantedLeg, round: number, seenPrice: number): Promise<{ leg: ExecutionLeg; audit: string } | null> {
  const clientOrderId = executionClientOrderId(ctx.orderId, ctx.customerId, wanted.kind, round, true);
  const placed = await session.adapter.closePosition(session.credentials, { symbol: session.symbol, side: session.side, clientOrderId, positionMode: session.mode, quantity: wanted.quantity });
  if (!placed) return null;
  const filled = await settle(session, placed);
  if (filled.filledQty <= 0 || filled.avgPrice === undefined) throw new Error(`the market order taking ${legLabel[wanted.kind]} is not filled yet`);
  ctx.realizedPnl = round8(ctx.realizedPnl + pnlOf(session.side, ctx.entryPrice!, filled.avgPrice, filled.filledQty));
  ctx.closedQty = round8(ctx.closedQty + filled.filledQty);
  return {
    leg: { kind: wanted.kind, clientOrderId, quantity: wanted.quantity, price: wanted.price, filledQty: filled.filledQty, avgPrice: filled.avgPrice, status: 'filled', round, atMarket: true },
    audit: `${legLabel[wanted.kind]} at ${wanted.price} had already been passed when it was placed (price ${seenPrice}): taken at market, ${filled.filledQty} ${session.symbol} at ${filled.avgPrice}`,
  };
}
