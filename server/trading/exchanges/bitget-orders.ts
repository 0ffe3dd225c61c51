import type { bitget as BitgetExchange, Exchange, Order } from 'ccxt';
import { toExchangeFailure } from './errors';
import type { MarketInfo, OrderKind, PositionModeName, PositionSide } from './types';

export const BITGET_PRODUCT = { productType: 'USDT-FUTURES', marginCoin: 'USDT' } as const;

export const bitgetOf = (ex: Exchange) => ex as BitgetExchange;

/**
 * Where Bitget keeps each kind of our orders: normal orders answer GET /api/v2/mix/order/detail; TP/SL
 * plans and trailing plans are only in their plan lists (orders-plan-pending / -history, by planType),
 * and are cancelled through cancel-plan-order with their own planType. Our TP legs are `profit_plan`, an
 * execution's own stop `loss_plan`, our trailing stops `moving_plan`: all are listed under `profit_loss`.
 */
const PLANS: Record<Exclude<OrderKind, 'order'>, { list: Record<string, unknown>; cancel: Record<string, unknown> }> = {
  take_profit: { list: { trigger: true, planType: 'profit_loss' }, cancel: { trigger: true, planType: 'profit_plan' } },
  stop_loss: { list: { trigger: true, planType: 'profit_loss' }, cancel: { trigger: true, planType: 'loss_plan' } },
  trailing: { list: { trigger: true, planType: 'profit_loss' }, cancel: { trigger: true, planType: 'moving_plan' } },
};

const isNotFound = (error: unknown) => toExchangeFailure('bitget', error).code === 'not_found';

/** At most two reads: the detail of an order; open plans, then plan history (a triggered take-profit is there). */
export async function findBitgetOrder(ex: Exchange, market: MarketInfo, clientOrderId: string, kind: OrderKind): Promise<Order | undefined> {
  if (kind === 'order') {
    try {
      return await ex.fetchOrder(undefined as unknown as string, market.ccxtSymbol, { clientOrderId });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
  const query = { ...PLANS[kind].list, clientOid: clientOrderId };
  const open = await ex.fetchOpenOrders(market.ccxtSymbol, undefined, undefined, query);
  const found = open.find((plan) => plan.clientOrderId === clientOrderId);
  if (found) return found;
  const done = await ex.fetchCanceledAndClosedOrders(market.ccxtSymbol, undefined, undefined, query);
  return done.find((plan) => plan.clientOrderId === clientOrderId);
}

/** One request; an order that is gone (filled, cancelled, never placed) is cancelled as far as we care. */
export async function cancelBitgetOrder(ex: Exchange, market: MarketInfo, clientOrderId: string, kind: OrderKind): Promise<void> {
  const params = kind === 'order' ? { clientOrderId } : { ...PLANS[kind].cancel, clientOrderId };
  try {
    await ex.cancelOrder(undefined as unknown as string, market.ccxtSymbol, params);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/**
 * The position stop loss (`pos_loss`) already on the position, if any: Bitget keeps one per position and
 * refuses a second (43031, LIVE-FIDELITY B6), so a move modifies it. One read of the open TP/SL plans.
 */
export async function findPositionStop(ex: Exchange, market: MarketInfo, mode: PositionModeName, side: PositionSide): Promise<Order | undefined> {
  const open = await ex.fetchOpenOrders(market.ccxtSymbol, undefined, undefined, PLANS.take_profit.list);
  return open.find((plan) => {
    const info = plan.info as { planType?: string; posSide?: string };
    return info.planType === 'pos_loss' && (mode === 'oneway' || info.posSide === side);
  });
}
