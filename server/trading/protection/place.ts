import type { ExecutionContext } from '../context';
import type { PlacedOrder } from '../exchanges/types';
import { executionClientOrderId } from '../ids';
import type { ExecutionLeg } from '../legs';
import { isFailure } from '../steps/errors';
import type { Session } from '../steps/session';
import { trailingTerms } from './levels';
import type { WantedLeg } from './wanted';

/** Sends one protective order (a duplicate client id is looked up by the adapter: a retry finds the earlier one). */
function sendLeg(ctx: ExecutionContext, session: Session, wanted: WantedLeg, price: number, clientOrderId: string): Promise<PlacedOrder> {
  const base = { symbol: session.symbol, side: session.side, quantity: wanted.quantity, clientOrderId, positionMode: session.mode };
  const { adapter, credentials } = session;
  if (wanted.kind === 'sl') return adapter.placeStopLoss(credentials, { ...base, triggerPrice: price });
  if (wanted.kind !== 'trailing') return adapter.placeTakeProfit(credentials, { ...base, triggerPrice: price });
  const terms = trailingTerms(ctx, session, ctx.entryPrice!);
  if (!terms) throw new Error('the strategy has no trailing stop terms');
  return adapter.placeTrailingStop(credentials, { ...base, activationPrice: price, callback: terms.callback });
}

/** Places one protective order with its deterministic client id. */
export async function placeLeg(ctx: ExecutionContext, session: Session, wanted: WantedLeg, price: number, round: number): Promise<ExecutionLeg> {
  const clientOrderId = executionClientOrderId(ctx.orderId, ctx.customerId, wanted.kind, round);
  await sendLeg(ctx, session, wanted, price, clientOrderId);
  return {
    kind: wanted.kind,
    clientOrderId,
    quantity: wanted.quantity,
    price,
    ...(price !== wanted.price ? { target: wanted.price } : {}),
    filledQty: 0,
    avgPrice: null,
    status: 'open',
    round,
  };
}

/**
 * Cancels one of this execution's legs (already gone is fine). Bybit's trailing stop is the position's
 * own and is replaced in place, so there is nothing to cancel.
 */
export async function cancelLeg(session: Session, leg: ExecutionLeg, positionLevelTrailing: boolean): Promise<void> {
  try {
    if (leg.attached) {
      if (leg.exchangeOrderId) await session.adapter.cancelAttachedLeg(session.credentials, session.symbol, { exchangeOrderId: leg.exchangeOrderId, planType: leg.planType });
    } else if (!(leg.kind === 'trailing' && positionLevelTrailing)) {
      await session.adapter.cancelOrder(session.credentials, session.symbol, leg.clientOrderId);
    }
  } catch (error) {
    if (!isFailure(error, 'not_found') && !isFailure(error, 'no_position')) throw error;
  }
  leg.status = 'canceled';
}

/** The exchange's view of a leg (by client id, or by the exchange's id for an attached one); null when unknown. */
export async function lookUpLeg(session: Session, leg: ExecutionLeg): Promise<PlacedOrder | null> {
  if (leg.attached) return leg.exchangeOrderId ? session.adapter.fetchOrderById(session.credentials, session.symbol, leg.exchangeOrderId) : null;
  return session.adapter.fetchOrderByClientId(session.credentials, session.symbol, leg.clientOrderId);
}
