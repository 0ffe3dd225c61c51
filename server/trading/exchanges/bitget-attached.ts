import type { Exchange, Order } from 'ccxt';
import { toExchangeFailure } from './errors';
import type { AttachedLeg, MarketInfo, PositionModeName, PositionSide } from './types';

const TPSL_PLANS = { trigger: true, planType: 'profit_loss' } as const;
const isNotFound = (error: unknown) => toExchangeFailure('bitget', error).code === 'not_found';

/**
 * What an entry's presets became: the position's `pos_loss` / `pos_profit` plans (whole position, no
 * client id of ours), open ones and, with `includeDone`, the recently triggered or cancelled ones.
 */
export async function findBitgetAttached(ex: Exchange, market: MarketInfo, position: { side: PositionSide; positionMode: PositionModeName }, includeDone: boolean): Promise<AttachedLeg[]> {
  const plans = [
    ...(await ex.fetchOpenOrders(market.ccxtSymbol, undefined, undefined, TPSL_PLANS)),
    ...(includeDone ? await ex.fetchCanceledAndClosedOrders(market.ccxtSymbol, undefined, undefined, TPSL_PLANS) : []),
  ];
  return plans.flatMap((plan): AttachedLeg[] => {
    const info = plan.info as Record<string, unknown>;
    const planType = String(info.planType ?? '');
    if (!plan.id || (planType !== 'pos_loss' && planType !== 'pos_profit')) return [];
    if (position.positionMode === 'hedge' && info.posSide !== position.side) return [];
    const trigger = Number(info.triggerPrice ?? plan.triggerPrice ?? 0);
    return [{ exchangeOrderId: plan.id, kind: planType === 'pos_loss' ? 'stopLoss' : 'takeProfit', triggerPrice: trigger, quantity: 0, sized: false, planType }];
  });
}

/** Cancels a plan by the exchange's id (already gone is fine). */
export async function cancelBitgetPlan(ex: Exchange, market: MarketInfo, exchangeOrderId: string, planType: string): Promise<void> {
  try {
    await ex.cancelOrder(exchangeOrderId, market.ccxtSymbol, { trigger: true, planType });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** A normal order from its detail, else a TP/SL plan from the open, then the past plan lists. */
export async function findBitgetOrderById(ex: Exchange, market: MarketInfo, exchangeOrderId: string): Promise<Order | undefined> {
  try {
    return await ex.fetchOrder(exchangeOrderId, market.ccxtSymbol);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  for (const list of [ex.fetchOpenOrders.bind(ex), ex.fetchCanceledAndClosedOrders.bind(ex)]) {
    const found = (await list(market.ccxtSymbol, undefined, undefined, { ...TPSL_PLANS, orderId: exchangeOrderId })).find((o) => o.id === exchangeOrderId);
    if (found) return found;
  }
  return undefined;
}
