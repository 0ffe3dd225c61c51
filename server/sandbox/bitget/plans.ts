import { ApiError, numberParam, text, type PrivateContext, type RouteTable } from '../http-types';
import type { Order } from '../types';
import { isOpen } from '../types';
import { checkPlanRoom, orderMarginMode, priceKindOfTrigger, requireMarginCoin, tpslPlanTypes, triggerTypeOf } from './checks';
import { paramError } from './errors';
import { planView } from './format';
import { clientIdOf, legOf, requireUsdtFutures, symbolOf } from './orders';

export function positivePrice(value: unknown, name: string): number {
  const price = numberParam(value);
  if (price === undefined || !(price > 0)) throw paramError(`${name} must be a positive number`);
  return price;
}

/**
 * normal_plan (trigger order) and track_plan (trailing stop, callbackRatio in %). Refused: a missing or
 * conflicting marginMode (400172/45117), reduceOnly YES in one-way mode (22042, strictness
 * bitgetOneWayReduceOnlyTriggerRefused), an 11th trigger order on the symbol (40889), a close with no
 * position (43023).
 */
function placePlan(ctx: PrivateContext): Record<string, string> {
  const { account, sandbox, body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  requireMarginCoin(body.marginCoin);
  const planType = text(body.planType) ?? 'normal_plan';
  if (planType !== 'normal_plan' && planType !== 'track_plan') throw paramError('planType must be normal_plan or track_plan');
  const qty = numberParam(body.size);
  if (qty === undefined || Number.isNaN(qty)) throw paramError('size is required');
  const triggerPrice = positivePrice(body.triggerPrice, 'triggerPrice');
  const marginMode = orderMarginMode(account, symbol, body.marginMode);
  const leg = legOf(ctx, symbol, body);
  if (leg.idx === 0 && leg.reduceOnly && sandbox.strictness.bitgetOneWayReduceOnlyTriggerRefused) {
    throw new ApiError('22042', 'When a one-way position is held, trigger order cannot only reduce positions.');
  }
  checkPlanRoom(account, symbol, planType);
  const position = sandbox.engine.slot(account, symbol, leg.idx);
  if (leg.reduceOnly && !(position.side && (position.side === 'long') !== (leg.side === 'buy'))) {
    throw new ApiError('43023', 'Insufficient position, can not set profit or stop loss');
  }
  const track = planType === 'track_plan';
  const triggerType = triggerTypeOf(body.triggerType);
  const triggerOn = priceKindOfTrigger(triggerType);
  const type = body.orderType === 'limit' && !track ? 'limit' : 'market';
  const order = sandbox.engine.place(account, {
    symbol, side: leg.side, type, qty, price: type === 'limit' ? positivePrice(body.executePrice ?? body.price, 'price') : 0, reduceOnly: leg.reduceOnly,
    positionIdx: leg.idx, clientId: clientIdOf(body.clientOid), kind: track ? 'trailing' : 'conditional',
    triggerPrice: track ? undefined : triggerPrice,
    triggerDirection: triggerPrice >= sandbox.prices.of(symbol, triggerOn) ? 1 : 2,
    triggerOn,
    trailing: track ? { ratio: positivePrice(body.callbackRatio, 'callbackRatio'), activation: triggerPrice } : undefined,
    labels: { ...leg.labels, planType, triggerType },
  });
  account.marginModes.set(symbol, marginMode);
  return { orderId: order.id, clientOid: order.clientId };
}

function planMatches(order: Order, planType: string | undefined): boolean {
  if (order.kind === 'normal' && !order.labels.planType) return false;
  const own = order.labels.planType ?? 'normal_plan';
  if (!planType) return true;
  return planType === 'profit_loss' ? tpslPlanTypes.includes(own) : own === planType;
}

function listPlans(ctx: PrivateContext, open: boolean): Record<string, unknown> {
  const q = ctx.query;
  requireUsdtFutures(q.productType);
  if (!q.planType) throw paramError('planType is required');
  const rows = ctx.account.orders
    .filter((order) => order.kind !== 'normal' || order.labels.planType !== undefined)
    .filter((order) => planMatches(order, q.planType) && isOpen(order) === open)
    .filter((order) => (!q.symbol || order.symbol === q.symbol) && (!q.orderId || order.id === q.orderId) && (!q.clientOid || order.clientId === q.clientOid))
    .reverse();
  const views = rows.map((order) => planView(ctx.sandbox, ctx.account, order));
  return { entrustedList: views.length ? views : null, endId: rows.at(-1)?.id ?? null };
}

function cancelPlans(ctx: PrivateContext): Record<string, unknown> {
  const { account, sandbox, body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = text(body.symbol);
  const planType = text(body.planType);
  const wanted = Array.isArray(body.orderIdList) ? (body.orderIdList as Array<Record<string, unknown>>) : undefined;
  const candidates = account.orders.filter((order) => isOpen(order) && planMatches(order, planType) && (!symbol || order.symbol === symbol));
  const chosen = wanted
    ? candidates.filter((order) => wanted.some((entry) => (entry.orderId ? entry.orderId === order.id : entry.clientOid === order.clientId)))
    : candidates;
  if (!chosen.length) throw new ApiError('43025', 'Plan order does not exist');
  const successList = chosen.map((order) => {
    sandbox.engine.cancel(account, order);
    return { orderId: order.id, clientOid: order.clientId };
  });
  return { successList, failureList: [] };
}

export const bitgetPlanRoutes: RouteTable = {
  'POST /api/v2/mix/order/place-plan-order': { access: 'trade', handle: placePlan },
  'GET /api/v2/mix/order/orders-plan-pending': { access: 'read', handle: (ctx) => listPlans(ctx, true) },
  'GET /api/v2/mix/order/orders-plan-history': { access: 'read', handle: (ctx) => listPlans(ctx, false) },
  'POST /api/v2/mix/order/cancel-plan-order': { access: 'trade', handle: cancelPlans },
};
