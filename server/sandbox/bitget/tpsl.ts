import type { PlaceRequest } from '../types';
import { ApiError, numberParam, text, type PrivateContext, type RouteTable } from '../http-types';
import type { Order, Position, PositionIdx } from '../types';
import { isOpen } from '../types';
import { checkPlanRoom, checkStopBeforeEntry, checkTriggerSide, priceKindOfTrigger, requireMarginCoin, tpslPlanTypes, triggerTypeOf, type TriggerType } from './checks';
import { paramError } from './errors';
import { clientIdOf, requireUsdtFutures, symbolOf } from './orders';
import { positivePrice } from './plans';

/** holdSide of a TP/SL: buy/sell in one-way mode, long/short in hedge mode (either is taken). */
function holdingOf(ctx: PrivateContext, symbol: string, value: unknown): { long: boolean; idx: PositionIdx; position: Position } {
  const holdSide = text(value);
  const long = holdSide === 'buy' || holdSide === 'long';
  if (!long && holdSide !== 'sell' && holdSide !== 'short') throw paramError('holdSide must be buy, sell, long or short');
  const hedge = ctx.sandbox.engine.positionModeOf(ctx.account, symbol) === 'hedge';
  const idx: PositionIdx = hedge ? (long ? 1 : 2) : 0;
  return { long, idx, position: ctx.sandbox.engine.slot(ctx.account, symbol, idx) };
}

interface TpslLeg {
  planType: string;
  triggerPrice: number;
  triggerType: TriggerType;
  size: number;
  executePrice: number;
  rangeRate?: number;
  clientOid: string;
}

const legKind = (planType: string): 'tp' | 'sl' | undefined =>
  planType === 'profit_plan' || planType === 'pos_profit' ? 'tp' : planType === 'loss_plan' || planType === 'pos_loss' ? 'sl' : undefined;

/**
 * Everything Bitget checks before a TP/SL plan is placed on a position: room on the symbol (40890), a position
 * (45068 for pos_profit/pos_loss, 40837 for the sized plans), a size within it (40891), the trigger on the
 * right side of the market (checkTriggerSide) and of the entry (40833/40835), and no second pos_profit/pos_loss
 * (43030/43031, strictness bitgetSecondPositionTpslRefused; off, the new one replaces the old).
 */
function tpslRequest(ctx: PrivateContext, symbol: string, holding: ReturnType<typeof holdingOf>, leg: TpslLeg): { request: PlaceRequest; replaced: Order[] } {
  const { account, sandbox } = ctx;
  const { long, idx, position } = holding;
  const whole = leg.planType === 'pos_profit' || leg.planType === 'pos_loss';
  checkPlanRoom(account, symbol, leg.planType);
  if (!position.side || position.side !== (long ? 'long' : 'short')) {
    throw whole
      ? new ApiError('45068', 'There is no position temporarily, and the order of TP and SL cannot be carried out')
      : new ApiError('40837', 'There is no position in this position, so stop-profit and stop-loss orders cannot be made');
  }
  if (!whole && !(leg.size > 0)) throw paramError('size is required for this planType');
  if (!whole && leg.size > position.size + 1e-12) throw new ApiError('40891', 'Insufficient position, can not set take profit or stop loss');
  const kind = legKind(leg.planType);
  if (kind) checkTriggerSide(long, kind, leg.triggerPrice, sandbox.prices.of(symbol, priceKindOfTrigger(leg.triggerType)), leg.triggerType);
  if (kind === 'sl') checkStopBeforeEntry(position, leg.triggerPrice, sandbox.strictness);
  const replaced = whole ? account.orders.filter((order) => isOpen(order) && order.symbol === symbol && order.positionIdx === idx && order.labels.planType === leg.planType) : [];
  if (replaced.length && sandbox.strictness.bitgetSecondPositionTpslRefused) {
    throw kind === 'tp' ? new ApiError('43030', 'Take profit order already existed') : new ApiError('43031', 'Stop loss order already existed');
  }
  const moving = leg.planType === 'moving_plan';
  const request: PlaceRequest = {
    symbol, side: long ? 'sell' : 'buy', type: leg.executePrice > 0 && !moving ? 'limit' : 'market', qty: whole ? 0 : leg.size, price: moving ? 0 : leg.executePrice,
    reduceOnly: true, positionIdx: idx, clientId: leg.clientOid, kind: moving ? 'trailing' : 'tpsl', wholePosition: whole,
    triggerPrice: moving ? undefined : leg.triggerPrice,
    trailing: moving ? { ratio: leg.rangeRate ?? 0, activation: leg.triggerPrice } : undefined,
    triggerOn: priceKindOfTrigger(leg.triggerType),
    labels: { planType: leg.planType, tpsl: kind ?? 'sl', triggerType: leg.triggerType },
  };
  return { request, replaced };
}

function placeLeg(ctx: PrivateContext, symbol: string, holding: ReturnType<typeof holdingOf>, leg: TpslLeg): Order {
  const { request, replaced } = tpslRequest(ctx, symbol, holding, leg);
  for (const old of replaced) ctx.sandbox.engine.cancel(ctx.account, old);
  return ctx.sandbox.engine.place(ctx.account, request);
}

/** place-tpsl-order: profit_plan/loss_plan (sized), pos_profit/pos_loss (whole position), moving_plan (trailing, rangeRate %). */
function placeTpsl(ctx: PrivateContext): Record<string, string> {
  const { body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  requireMarginCoin(body.marginCoin);
  const planType = text(body.planType) ?? '';
  if (!tpslPlanTypes.includes(planType)) throw paramError(`planType ${planType} is not supported`);
  const holding = holdingOf(ctx, symbol, body.holdSide);
  const order = placeLeg(ctx, symbol, holding, {
    planType,
    triggerPrice: positivePrice(body.triggerPrice, 'triggerPrice'),
    triggerType: triggerTypeOf(body.triggerType),
    size: numberParam(body.size) ?? 0,
    executePrice: numberParam(body.executePrice) ?? 0,
    rangeRate: planType === 'moving_plan' ? positivePrice(body.rangeRate, 'rangeRate') : undefined,
    clientOid: clientIdOf(body.clientOid),
  });
  return { orderId: order.id, clientOid: order.clientId };
}

/**
 * place-pos-tpsl: a take-profit and/or a stop-loss in one call (profit_plan/loss_plan with a size,
 * pos_profit/pos_loss without). Both are checked before either is placed.
 */
function placePosTpsl(ctx: PrivateContext): Array<Record<string, string>> {
  const { body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  requireMarginCoin(body.marginCoin);
  const holding = holdingOf(ctx, symbol, body.holdSide);
  const tpClientOid = clientIdOf(body.stopSurplusClientOid);
  const slClientOid = clientIdOf(body.stopLossClientOid);
  const legs: TpslLeg[] = [];
  for (const [prefix, sized, whole, clientOid] of [['stopSurplus', 'profit_plan', 'pos_profit', tpClientOid], ['stopLoss', 'loss_plan', 'pos_loss', slClientOid]] as const) {
    const trigger = numberParam(body[`${prefix}TriggerPrice`]);
    if (trigger === undefined) continue;
    const size = numberParam(body[`${prefix}Size`]);
    legs.push({
      planType: size ? sized : whole,
      triggerPrice: positivePrice(trigger, `${prefix}TriggerPrice`),
      triggerType: triggerTypeOf(body[`${prefix}TriggerType`]),
      size: size ?? 0,
      executePrice: numberParam(body[`${prefix}ExecutePrice`]) ?? 0,
      clientOid,
    });
  }
  if (!legs.length) throw paramError('stopSurplusTriggerPrice or stopLossTriggerPrice is required');
  for (const leg of legs) tpslRequest(ctx, symbol, holding, leg);
  return legs.map((leg) => ({ orderId: placeLeg(ctx, symbol, holding, leg).id, stopSurplusClientOid: tpClientOid, stopLossClientOid: slClientOid }));
}

/**
 * modify-tpsl-order: a new trigger (checked like a new one), size or execute price for an open TP/SL plan,
 * found by orderId or clientOid (else 43020).
 */
function modifyTpsl(ctx: PrivateContext): Record<string, string> {
  const { account, sandbox, body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  requireMarginCoin(body.marginCoin);
  const orderId = text(body.orderId);
  const clientOid = text(body.clientOid);
  if (!orderId && !clientOid) throw paramError('orderId or clientOid is required');
  const order = account.orders.find(
    (candidate) => candidate.symbol === symbol && isOpen(candidate) && tpslPlanTypes.includes(candidate.labels.planType ?? '') && (orderId ? candidate.id === orderId : candidate.clientId === clientOid),
  );
  if (!order) throw new ApiError('43020', 'Stop profit and stop loss order does not exist');
  const triggerPrice = positivePrice(body.triggerPrice, 'triggerPrice');
  const triggerType = triggerTypeOf(body.triggerType ?? order.labels.triggerType);
  const position = sandbox.engine.slot(account, symbol, order.positionIdx);
  const long = order.side === 'sell';
  const planType = order.labels.planType ?? '';
  const kind = legKind(planType);
  if (kind) checkTriggerSide(long, kind, triggerPrice, sandbox.prices.of(symbol, priceKindOfTrigger(triggerType)), triggerType);
  if (kind === 'sl') checkStopBeforeEntry(position, triggerPrice, sandbox.strictness);
  const size = numberParam(body.size);
  if (!order.wholePosition && size !== undefined) {
    if (!(size > 0)) throw paramError('size must be a positive number');
    if (size > position.size + 1e-12) throw new ApiError('40891', 'Insufficient position, can not set take profit or stop loss');
    order.qty = size;
  }
  const executePrice = numberParam(body.executePrice) ?? 0;
  if (planType === 'moving_plan') {
    const rangeRate = numberParam(body.rangeRate);
    order.trailing = { ratio: rangeRate ?? order.trailing?.ratio ?? 0, activation: triggerPrice, active: false, extreme: 0 };
  } else {
    order.triggerPrice = triggerPrice;
    order.type = executePrice > 0 ? 'limit' : 'market';
    order.price = executePrice;
  }
  order.labels.triggerType = triggerType;
  order.triggerOn = priceKindOfTrigger(triggerType);
  order.updatedAt = sandbox.now();
  sandbox.engine.orderAmended(account, order);
  return { orderId: order.id, clientOid: order.clientId };
}

export const bitgetTpslRoutes: RouteTable = {
  'POST /api/v2/mix/order/place-tpsl-order': { access: 'trade', handle: placeTpsl },
  'POST /api/v2/mix/order/place-pos-tpsl': { access: 'trade', handle: placePosTpsl },
  'POST /api/v2/mix/order/modify-tpsl-order': { access: 'trade', handle: modifyTpsl },
};
