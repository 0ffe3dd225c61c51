import type { ExitType } from '../../../contract/enums';
import type { ExecutionContext } from '../context';
import { markClosed } from '../execution-state/position';
import type { PlacedOrder } from '../exchanges/types';
import { closedAtMarketMessage, withRealizedPnl } from '../exit-messages';
import { executionClientOrderId } from '../ids';
import type { TradingRuntime } from '../runtime';
import { isFailure } from './errors';
import type { DbOrTx } from '../../db/client';
import { cancelOpenLegs, refreshLegs, traceAttachedLegs } from './legs-state';
import { pnlOf, settle, type Session } from './session';

/**
 * Closes what is left of this execution's position at market, reduce-only and sized to it (never
 * another execution's part), after booking any leg fills and cancelling its remaining legs. The close
 * has its own client order id, looked up first, so a retry never closes twice. Answers what happened.
 */
export async function closeRemaining(db: DbOrTx, ctx: ExecutionContext, session: Session): Promise<string> {
  await traceAttachedLegs(db, ctx, session);
  await refreshLegs(session, ctx);
  await cancelOpenLegs(db, session, ctx);
  const step = session.market.qtyStep;
  const remaining = Math.max(0, Number((ctx.quantity! - ctx.closedQty).toFixed(8)));
  const clientOrderId = executionClientOrderId(ctx.orderId, ctx.customerId, 'close');
  let placed: PlacedOrder | null = await session.adapter.fetchOrderByClientId(session.credentials, session.symbol, clientOrderId);
  if (!placed && remaining >= step / 2) {
    try {
      placed = await session.adapter.closePosition(session.credentials, { symbol: session.symbol, side: session.side, clientOrderId, positionMode: session.mode, quantity: remaining });
    } catch (error) {
      if (isFailure(error, 'no_position')) placed = null;
      else if (isFailure(error, 'duplicate')) placed = await session.adapter.fetchOrderByClientId(session.credentials, session.symbol, clientOrderId);
      else throw error;
    }
  }
  if (!placed) return 'the position was already flat on the exchange';
  const filled = await settle(session, placed);
  if (filled.filledQty <= 0 || filled.avgPrice === undefined) throw new Error('the close order is not filled yet');
  ctx.realizedPnl = Number((ctx.realizedPnl + pnlOf(session.side, ctx.entryPrice!, filled.avgPrice, filled.filledQty)).toFixed(8));
  ctx.closedQty = Number((ctx.closedQty + filled.filledQty).toFixed(8));
  return `${filled.filledQty} ${session.symbol} at ${filled.avgPrice}`;
}

/** A requested close (by admin, by signal): what is left closed at market, the exit audited, the Order settled. */
export async function runClose(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<void> {
  const detail = await closeRemaining(rt.db, ctx, session);
  await markClosed(rt, ctx, {
    exitType: (ctx.exitType as ExitType | null) ?? null,
    message: withRealizedPnl(closedAtMarketMessage(ctx.exitType, detail), ctx.realizedPnl),
  });
}
