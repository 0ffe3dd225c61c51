import type { PlaceRequest } from '../engine';
import { EngineError } from '../engine-error';
import { findMarket } from '../markets';
import { numberParam, text, type PrivateContext, type RouteTable } from '../http-types';
import type { Order, PositionIdx } from '../types';
import { isOpen } from '../types';
import { checkConditionalRoom, checkPartialRoom, checkProtectionSide, checkTriggerAhead, triggerByOf } from './checks';
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

function createRequest(ctx: PrivateContext): PlaceRequest {
  const body = ctx.body;
  requireLinear(body.category);
  const symbol = text(body.symbol) ?? '';
  if (!findMarket(symbol)) throw new EngineError('unknownSymbol', `Unknown symbol ${symbol}`);
  const side = body.side === 'Buy' ? 'buy' : body.side === 'Sell' ? 'sell' : undefined;
  if (!side) throw paramError('side must be Buy or Sell');
  const type = body.orderType === 'Market' ? 'market' : body.orderType === 'Limit' ? 'limit' : undefined;
  if (!type) throw paramError('orderType must be Market or Limit');
  const qty = numberParam(body.qty);
  if (qty === undefined || Number.isNaN(qty)) throw paramError('qty is required');
  const price = numberParam(body.price) ?? 0;
  if (type === 'limit' && !(price > 0)) throw paramError('price is required for a Limit order');
  const clientId = text(body.orderLinkId) ?? '';
  if (clientId && !linkIdPattern.test(clientId)) throw paramError('orderLinkId is invalid');
  const triggerPrice = numberParam(body.triggerPrice);
  const takeProfit = numberParam(body.takeProfit);
  const stopLoss = numberParam(body.stopLoss);
  if ([triggerPrice, takeProfit, stopLoss].some((value) => value !== undefined && !(value > 0))) throw paramError('trigger prices must be positive');
  let triggerDirection: 0 | 1 | 2 = 0;
  if (triggerPrice !== undefined) {
    const given = Number(body.triggerDirection);
    triggerDirection = given === 1 || given === 2 ? given : triggerPrice >= ctx.sandbox.prices.get(symbol) ? 1 : 2;
  }
  const tpslMode = body.tpslMode === 'Partial' ? 'Partial' : 'Full';
  return {
    symbol,
    side,
    type,
    qty,
    price,
    reduceOnly: body.reduceOnly === true || body.reduceOnly === 'true',
    positionIdx: positionIdxOf(body.positionIdx),
    clientId,
    kind: triggerPrice !== undefined ? 'conditional' : 'normal',
    triggerPrice,
    triggerDirection,
    takeProfit,
    stopLoss,
    tpslMode,
    labels: {
      stopOrderType: triggerPrice !== undefined ? 'Stop' : '',
      ...(text(body.timeInForce) ? { timeInForce: text(body.timeInForce) ?? 'GTC' } : {}),
    },
    receivedAt: ctx.receivedAt,
  };
}

/**
 * What Bybit refuses before it accepts an order: a conditional order whose trigger the last price has passed
 * (110092/110093) or that would be the 11th on the symbol (110009); TP/SL attached to an entry on the wrong
 * side of base_price (10001): the last price at submission for a market entry, else the entry's own price.
 */
function checkCreate(ctx: PrivateContext, request: PlaceRequest): void {
  const { account, sandbox, body } = ctx;
  const last = sandbox.prices.get(request.symbol);
  if (request.kind === 'conditional') {
    checkConditionalRoom(account, request.symbol);
    checkTriggerAhead(request.triggerDirection ?? 0, request.triggerPrice ?? 0, last, triggerByOf(body.triggerBy));
  }
  if (!request.takeProfit && !request.stopLoss) return;
  const base = request.kind === 'conditional' ? (request.triggerPrice ?? last) : request.type === 'limit' ? request.price : last;
  checkProtectionSide(request.side === 'buy' ? 'long' : 'short', base, {
    takeProfit: request.takeProfit,
    stopLoss: request.stopLoss,
    tpTriggerBy: triggerByOf(body.tpTriggerBy),
    slTriggerBy: triggerByOf(body.slTriggerBy),
  });
  if (request.tpslMode === 'Partial') checkPartialRoom(account, request.symbol, request.positionIdx, (request.takeProfit ? 1 : 0) + (request.stopLoss ? 1 : 0));
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
  const list = ctx.account.orders
    .filter((order) => !q.symbol || order.symbol === q.symbol)
    .filter((order) => !q.orderId || order.id === q.orderId)
    .filter((order) => !q.orderLinkId || order.clientId === q.orderLinkId)
    .filter((order) => (open ? byId || isOpen(order) : !isOpen(order)))
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
