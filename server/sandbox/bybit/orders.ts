import type { PlaceRequest } from '../types';
import { EngineError } from '../engine-error';
import { ApiError, numberParam, text, type PrivateContext, type RouteTable } from '../http-types';
import { findMarket, formatNumber as num } from '../markets';
import { riskLimitBreach } from '../risk-tiers';
import type { Order, PositionIdx } from '../types';
import { isOpen } from '../types';
import { checkConditionalRoom, checkPartialRoom, checkProtectionSide, checkTriggerAhead, priceKindOf, triggerByOf, type ProtectionLeg, type TriggerBy } from './checks';
import { paramError } from './errors';
import { orderView } from './format';

const linkIdPattern = /^[A-Za-z0-9_-]{1,36}$/;

function requireLinear(category: unknown): void {
  if (category !== 'linear') throw paramError('category only support linear');
}

function positionIdxOf(value: unknown): PositionIdx {
  const idx = value === undefined ? 0 : Number(value);
  if (idx !== 0 && idx !== 1 && idx !== 2) throw paramError('positionIdx must be 0, 1 or 2');
  return idx;
}

const flag = (value: unknown) => value === true || value === 'true';

/** The order's side, type, size and price, as create-order.mdx names them. */
function basics(body: Record<string, unknown>): Pick<PlaceRequest, 'side' | 'type' | 'qty' | 'price'> {
  const side = body.side === 'Buy' ? 'buy' : body.side === 'Sell' ? 'sell' : undefined;
  if (!side) throw paramError('side must be Buy or Sell');
  const type = body.orderType === 'Market' ? 'market' : body.orderType === 'Limit' ? 'limit' : undefined;
  if (!type) throw paramError('orderType must be Market or Limit');
  const qty = numberParam(body.qty);
  if (qty === undefined || Number.isNaN(qty)) throw paramError('qty is required');
  const price = numberParam(body.price) ?? 0;
  if (type === 'limit' && !(price > 0)) throw paramError('price is required for a Limit order');
  return { side, type, qty, price };
}

/**
 * "When reduceOnly is true, take profit/stop loss cannot be set" (create-order.mdx, reduceOnly): refused as a
 * parameter error, 10001 (the page names no code; 10001 is the error list's "Request parameter error").
 */
export const REDUCE_ONLY_TPSL_TEXT = 'params error: When reduceOnly is true, take profit/stop loss cannot be set';

function createRequest(ctx: PrivateContext): PlaceRequest {
  const body = ctx.body;
  requireLinear(body.category);
  const symbol = text(body.symbol) ?? '';
  if (!findMarket(symbol)) throw new EngineError('unknownSymbol', `Unknown symbol ${symbol}`);
  const { side, type, qty, price } = basics(body);
  const clientId = text(body.orderLinkId) ?? '';
  if (clientId && !linkIdPattern.test(clientId)) throw paramError('orderLinkId is invalid');
  const triggerPrice = numberParam(body.triggerPrice);
  const takeProfit = numberParam(body.takeProfit);
  const stopLoss = numberParam(body.stopLoss);
  if ([triggerPrice, takeProfit, stopLoss].some((value) => value !== undefined && !(value > 0))) throw paramError('trigger prices must be positive');
  const reduceOnly = flag(body.reduceOnly);
  if (reduceOnly && (takeProfit !== undefined || stopLoss !== undefined)) throw new ApiError('10001', REDUCE_ONLY_TPSL_TEXT);
  const triggerOn = priceKindOf(triggerByOf(body.triggerBy));
  let triggerDirection: 0 | 1 | 2 = 0;
  if (triggerPrice !== undefined) {
    const given = Number(body.triggerDirection);
    triggerDirection = given === 1 || given === 2 ? given : triggerPrice >= ctx.sandbox.prices.of(symbol, triggerOn) ? 1 : 2;
  }
  const closeOnTrigger = flag(body.closeOnTrigger);
  return {
    symbol, side, type, qty, price, clientId, triggerPrice, triggerDirection, triggerOn, takeProfit, stopLoss, closeOnTrigger,
    // closeOnTrigger: "For a closing order. It can only reduce your position, not increase it" (create-order.mdx).
    reduceOnly: reduceOnly || closeOnTrigger,
    positionIdx: positionIdxOf(body.positionIdx),
    kind: triggerPrice !== undefined ? 'conditional' : 'normal',
    tpslMode: body.tpslMode === 'Partial' ? 'Partial' : 'Full',
    labels: {
      stopOrderType: triggerPrice !== undefined ? 'Stop' : '',
      ...(text(body.timeInForce) ? { timeInForce: text(body.timeInForce) ?? 'GTC' } : {}),
      ...(takeProfit ? { tpTriggerBy: triggerByOf(body.tpTriggerBy) } : {}),
      ...(stopLoss ? { slTriggerBy: triggerByOf(body.slTriggerBy) } : {}),
    },
    receivedAt: ctx.receivedAt,
    visibleAt: ctx.orderHiddenMs ? ctx.sandbox.now() + ctx.orderHiddenMs : undefined,
  };
}

/**
 * What Bybit refuses before it accepts an order: a conditional order whose trigger its price type has passed
 * (110092/110093) or that would be the 11th on the symbol (110009); TP/SL attached to an entry on the wrong
 * side of base_price (10001): the price each triggerBy names at submission for a market entry, else the
 * entry's own price; an opening order that takes the position past the risk limit of its leverage (110090).
 */
function checkCreate(ctx: PrivateContext, request: PlaceRequest): void {
  const { account, sandbox, body } = ctx;
  const quote = sandbox.prices.quote(request.symbol);
  if (request.kind === 'conditional') {
    checkConditionalRoom(account, request.symbol);
    checkTriggerAhead(request.triggerDirection ?? 0, request.triggerPrice ?? 0, quote[request.triggerOn ?? 'last'], triggerByOf(body.triggerBy));
  }
  if (!request.reduceOnly) checkRiskLimit(ctx, request, request.type === 'limit' ? request.price : (request.triggerPrice ?? quote.last));
  if (!request.takeProfit && !request.stopLoss) return;
  const fixed = request.kind === 'conditional' ? request.triggerPrice : request.type === 'limit' ? request.price : undefined;
  const leg = (price: number | undefined, by: TriggerBy): ProtectionLeg => ({ price, by, base: fixed ?? quote[priceKindOf(by)] });
  checkProtectionSide(request.side === 'buy' ? 'long' : 'short', leg(request.takeProfit, triggerByOf(body.tpTriggerBy)), leg(request.stopLoss, triggerByOf(body.slTriggerBy)));
  if (request.tpslMode === 'Partial') checkPartialRoom(account, request.symbol, request.positionIdx, (request.takeProfit ? 1 : 0) + (request.stopLoss ? 1 : 0));
}

/** 110090 (docs/v5/error.mdx): the order would take the position past the largest value its leverage's risk tier allows. */
function checkRiskLimit(ctx: PrivateContext, request: PlaceRequest, price: number): void {
  const allowed = riskLimitBreach(ctx.account, request, price);
  if (allowed === undefined) return;
  throw new ApiError('110090', `Order placement failed as your position may exceed the max limit. Please adjust your leverage to ${num(allowed)} or below to increase the max. position limit`);
}

function findOrder(ctx: PrivateContext, symbol: string | undefined): Order {
  const orderId = text(ctx.body.orderId);
  const linkId = text(ctx.body.orderLinkId);
  if (!orderId && !linkId) throw paramError('orderId or orderLinkId is required');
  const order = ctx.account.orders.find(
    (candidate) => (!symbol || candidate.symbol === symbol) && (orderId ? candidate.id === orderId : candidate.clientId === linkId),
  );
  if (!order || !isOpen(order)) throw new EngineError('orderNotFound', 'order not found');
  return order;
}

/** Orders the query names: by orderId/orderLinkId (any status) or the open ones by symbol/settleCoin. */
function listOrders(ctx: PrivateContext, open: boolean): Record<string, unknown> {
  const q = ctx.query;
  requireLinear(q.category);
  if (!q.symbol && !q.settleCoin && !q.baseCoin && open) throw paramError('symbol, settleCoin or baseCoin is required');
  const byId = Boolean(q.orderId || q.orderLinkId);
  const filter = q.orderFilter;
  const limit = Math.min(Number(q.limit ?? 20) || 20, 50);
  // An order Bybit acknowledged is not yet visible to queries while the create is still being processed (D6).
  const now = ctx.sandbox.now();
  const list = ctx.account.orders
    .filter((order) => !q.symbol || order.symbol === q.symbol)
    .filter((order) => !q.orderId || order.id === q.orderId)
    .filter((order) => !q.orderLinkId || order.clientId === q.orderLinkId)
    .filter((order) => order.visibleAt <= now && (open ? byId || isOpen(order) : !isOpen(order)))
    .filter((order) => !filter || (filter === 'Order' ? order.kind === 'normal' : filter === 'StopOrder' ? order.kind === 'conditional' : order.kind === 'tpsl' || order.kind === 'trailing'))
    .filter((order) => !q.orderStatus || orderView(order).orderStatus === q.orderStatus)
    .reverse()
    .slice(0, open && byId ? 500 : limit);
  return { category: 'linear', list: list.map(orderView), nextPageCursor: '' };
}

export const bybitOrderRoutes: RouteTable = {
  'POST /v5/order/create': {
    access: 'trade',
    handle: (ctx) => {
      const request = createRequest(ctx);
      checkCreate(ctx, request);
      const order = ctx.sandbox.engine.place(ctx.account, request);
      return { orderId: order.id, orderLinkId: order.clientId };
    },
  },
  'POST /v5/order/cancel': {
    access: 'trade',
    handle: (ctx) => {
      requireLinear(ctx.body.category);
      const order = ctx.sandbox.engine.cancel(ctx.account, findOrder(ctx, text(ctx.body.symbol)));
      return { orderId: order.id, orderLinkId: order.clientId };
    },
  },
  'POST /v5/order/cancel-all': {
    access: 'trade',
    handle: (ctx) => {
      requireLinear(ctx.body.category);
      const symbol = text(ctx.body.symbol);
      const cancelled = ctx.account.orders
        .filter((order) => isOpen(order) && (!symbol || order.symbol === symbol))
        .map((order) => ctx.sandbox.engine.cancel(ctx.account, order));
      return { list: cancelled.map((order) => ({ orderId: order.id, orderLinkId: order.clientId })), success: '1' };
    },
  },
  'GET /v5/order/realtime': { access: 'read', handle: (ctx) => listOrders(ctx, true) },
  'GET /v5/order/history': { access: 'read', handle: (ctx) => listOrders(ctx, false) },
};
