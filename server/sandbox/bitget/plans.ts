import { EngineError } from '../engine-error';
import { ApiError, numberParam, text, type PrivateContext, type RouteTable } from '../http-types';
import type { Order, PositionIdx, Side } from '../types';
import { isOpen } from '../types';
import { paramError } from './errors';
import { planView } from './format';
import { clientIdOf, legOf, requireUsdtFutures, symbolOf } from './orders';

const tpslPlanTypes = ['profit_plan', 'loss_plan', 'pos_profit', 'pos_loss', 'moving_plan'];

function positivePrice(value: unknown, name: string): number {
  const price = numberParam(value);
  if (price === undefined || !(price > 0)) throw paramError(`${name} must be a positive number`);
  return price;
}

/** TP/SL and trailing plans on a position: profit_plan/loss_plan (sized), pos_profit/pos_loss (whole), moving_plan. */
function placeTpsl(ctx: PrivateContext): Record<string, string> {
  const { account, sandbox, body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  const planType = text(body.planType) ?? '';
  if (!tpslPlanTypes.includes(planType)) throw paramError(`planType ${planType} is not supported`);
  const holdSide = text(body.holdSide);
  const long = holdSide === 'buy' || holdSide === 'long';
  if (!long && holdSide !== 'sell' && holdSide !== 'short') throw paramError('holdSide must be buy, sell, long or short');
  const hedge = sandbox.engine.positionModeOf(account, symbol) === 'hedge';
  const idx: PositionIdx = hedge ? (long ? 1 : 2) : 0;
  const exitSide: Side = long ? 'sell' : 'buy';
  const triggerPrice = positivePrice(body.triggerPrice, 'triggerPrice');
  const whole = planType === 'pos_profit' || planType === 'pos_loss';
  const size = whole ? 0 : numberParam(body.size);
  if (!whole && (size === undefined || !(size > 0))) throw paramError('size is required for this planType');
  const executePrice = numberParam(body.executePrice) ?? 0;
  const position = sandbox.engine.slot(account, symbol, idx);
  if (!position.side || position.side !== (long ? 'long' : 'short')) throw new EngineError('noPosition', 'no position');
  if (whole) {
    for (const order of account.orders) {
      if (isOpen(order) && order.symbol === symbol && order.positionIdx === idx && order.labels.planType === planType) order.status = 'cancelled';
    }
  }
  const moving = planType === 'moving_plan';
  const order = sandbox.engine.place(account, {
    symbol, side: exitSide, type: executePrice > 0 && !moving ? 'limit' : 'market', qty: size ?? 0, price: executePrice, reduceOnly: true,
    positionIdx: idx, clientId: clientIdOf(body.clientOid), kind: moving ? 'trailing' : 'tpsl', wholePosition: whole,
    triggerPrice: moving ? undefined : triggerPrice,
    trailing: moving ? { ratio: positivePrice(body.rangeRate, 'rangeRate'), activation: triggerPrice } : undefined,
    labels: { planType, tpsl: planType === 'profit_plan' || planType === 'pos_profit' ? 'tp' : 'sl' },
  });
  return { orderId: order.id, clientOid: order.clientId };
}

/** normal_plan (trigger order) and track_plan (trailing stop, callbackRatio in %). */
function placePlan(ctx: PrivateContext): Record<string, string> {
  const { account, sandbox, body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  const planType = text(body.planType) ?? 'normal_plan';
  if (planType !== 'normal_plan' && planType !== 'track_plan') throw paramError('planType must be normal_plan or track_plan');
  const qty = numberParam(body.size);
  if (qty === undefined || Number.isNaN(qty)) throw paramError('size is required');
  const triggerPrice = positivePrice(body.triggerPrice, 'triggerPrice');
  const leg = legOf(ctx, symbol, body);
  const track = planType === 'track_plan';
  const type = body.orderType === 'limit' && !track ? 'limit' : 'market';
  const order = sandbox.engine.place(account, {
    symbol, side: leg.side, type, qty, price: type === 'limit' ? positivePrice(body.price, 'price') : 0, reduceOnly: leg.reduceOnly,
    positionIdx: leg.idx, clientId: clientIdOf(body.clientOid), kind: track ? 'trailing' : 'conditional',
    triggerPrice: track ? undefined : triggerPrice,
    triggerDirection: triggerPrice >= sandbox.prices.get(symbol) ? 1 : 2,
    trailing: track ? { ratio: positivePrice(body.callbackRatio, 'callbackRatio'), activation: triggerPrice } : undefined,
    labels: { ...leg.labels, planType },
  });
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
  'POST /api/v2/mix/order/place-tpsl-order': { access: 'trade', handle: placeTpsl },
  'POST /api/v2/mix/order/place-plan-order': { access: 'trade', handle: placePlan },
  'GET /api/v2/mix/order/orders-plan-pending': { access: 'read', handle: (ctx) => listPlans(ctx, true) },
  'GET /api/v2/mix/order/orders-plan-history': { access: 'read', handle: (ctx) => listPlans(ctx, false) },
  'POST /api/v2/mix/order/cancel-plan-order': { access: 'trade', handle: cancelPlans },
};
