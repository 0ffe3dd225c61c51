import type { PlaceRequest } from '../types';
import { EngineError } from '../engine-error';
import { findMarket } from '../markets';
import { ApiError, numberParam, text, type PrivateContext, type RouteTable } from '../http-types';
import type { Order, PositionIdx, Side } from '../types';
import { isOpen } from '../types';
import { riskLimitBreach } from '../risk-tiers';
import { checkTriggerSide, orderMarginMode, requireMarginCoin } from './checks';
import { paramError } from './errors';
import { orderView } from './format';

const clientOidPattern = /^[0-9A-Za-z+_#-]+$/;
/** "clientOid or clientOrderId length cannot greater than 50" (error list 40304): 50 characters are allowed. */
const CLIENT_OID_MAX = 50;

export function requireUsdtFutures(value: unknown): void {
  if (String(value ?? '').toUpperCase() !== 'USDT-FUTURES') throw paramError('productType must be USDT-FUTURES');
}

export function symbolOf(value: unknown): string {
  const symbol = text(value) ?? '';
  if (!findMarket(symbol)) throw new EngineError('unknownSymbol', `Unknown symbol ${symbol}`);
  return symbol;
}

/** A clientOid of at most 50 characters (40304) from `[0-9A-Za-z]` and `- + _ #` (40305, Bitget API FAQ). */
export function clientIdOf(value: unknown): string {
  const clientId = text(value) ?? '';
  if (clientId.length > CLIENT_OID_MAX) throw new ApiError('40304', 'clientOid or clientOrderId length cannot greater than 50');
  if (clientId && !clientOidPattern.test(clientId)) throw new ApiError('40305', 'clientOid or clientOrderId length cannot greater than 64, and cannot be Martian characters');
  return clientId;
}

/**
 * Bitget's side/tradeSide onto the engine: one-way orders carry no tradeSide; hedge orders must, and a hedge
 * close names the position's side (close long = side buy), so the executed side is the opposite one.
 */
export function legOf(ctx: PrivateContext, symbol: string, body: Record<string, unknown>): { side: Side; idx: PositionIdx; reduceOnly: boolean; labels: Record<string, string> } {
  const side = body.side === 'buy' || body.side === 'sell' ? body.side : undefined;
  if (!side) throw paramError('side must be buy or sell');
  const tradeSide = text(body.tradeSide)?.toLowerCase();
  const hedge = ctx.sandbox.engine.positionModeOf(ctx.account, symbol) === 'hedge';
  if (hedge !== (tradeSide !== undefined)) throw new EngineError('positionModeMismatch', 'tradeSide does not match the position mode');
  if (!hedge) {
    return { side, idx: 0, reduceOnly: String(body.reduceOnly ?? '').toUpperCase() === 'YES', labels: { side, tradeSide: `${side}_single` } };
  }
  if (tradeSide !== 'open' && tradeSide !== 'close') throw paramError('tradeSide must be open or close');
  const idx: PositionIdx = side === 'buy' ? 1 : 2;
  const executed: Side = tradeSide === 'close' ? (side === 'buy' ? 'sell' : 'buy') : side;
  return { side: executed, idx, reduceOnly: tradeSide === 'close', labels: { side, tradeSide } };
}

function placeRequest(ctx: PrivateContext): PlaceRequest {
  const body = ctx.body;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  requireMarginCoin(body.marginCoin);
  const type = body.orderType === 'market' || body.orderType === 'limit' ? body.orderType : undefined;
  if (!type) throw paramError('orderType must be market or limit');
  const qty = numberParam(body.size);
  if (qty === undefined || Number.isNaN(qty)) throw paramError('size is required');
  const price = numberParam(body.price) ?? 0;
  if (type === 'limit' && !(price > 0)) throw paramError('price is required for a limit order');
  const leg = legOf(ctx, symbol, body);
  return {
    symbol,
    side: leg.side,
    type,
    qty,
    price,
    reduceOnly: leg.reduceOnly,
    positionIdx: leg.idx,
    clientId: clientIdOf(body.clientOid),
    kind: 'normal',
    takeProfit: numberParam(body.presetStopSurplusPrice),
    stopLoss: numberParam(body.presetStopLossPrice),
    tpslMode: 'Full',
    labels: { ...leg.labels, force: String(body.force ?? 'gtc').toLowerCase() },
    receivedAt: ctx.receivedAt,
    visibleAt: ctx.orderHiddenMs ? ctx.sandbox.now() + ctx.orderHiddenMs : undefined,
    refuseWithoutLiquidity: ctx.sandbox.strictness.bitgetEmptyBookRefused,
  };
}

function findNormal(ctx: PrivateContext, source: Record<string, unknown>): Order {
  const orderId = text(source.orderId);
  const clientOid = text(source.clientOid);
  if (!orderId && !clientOid) throw paramError('orderId or clientOid is required');
  const symbol = text(source.symbol);
  const now = ctx.sandbox.now();
  const order = ctx.account.orders.find(
    (candidate) => candidate.kind === 'normal' && candidate.visibleAt <= now && (!symbol || candidate.symbol === symbol) && (orderId ? candidate.id === orderId : candidate.clientId === clientOid),
  );
  if (!order) throw new EngineError('orderNotFound', 'order not found');
  return order;
}

function list(ctx: PrivateContext, open: boolean): Record<string, unknown> {
  requireUsdtFutures(ctx.query.productType);
  const q = ctx.query;
  const limit = Math.min(Number(q.limit ?? 100) || 100, 100);
  const now = ctx.sandbox.now();
  const rows = ctx.account.orders
    .filter((order) => order.kind === 'normal' && order.visibleAt <= now && isOpen(order) === open)
    .filter((order) => (!q.symbol || order.symbol === q.symbol) && (!q.orderId || order.id === q.orderId) && (!q.clientOid || order.clientId === q.clientOid))
    .reverse()
    .slice(0, limit);
  const views = rows.map((order) => orderView(ctx.sandbox, ctx.account, order));
  return { entrustedList: views.length ? views : null, endId: rows.at(-1)?.id ?? null };
}

/** Flash close: market-closes the symbol's position(s), the whole size, without a client id; nothing to close is 45006. */
function closePositions(ctx: PrivateContext): Record<string, unknown> {
  const { account, sandbox, body } = ctx;
  requireUsdtFutures(body.productType);
  const symbol = symbolOf(body.symbol);
  const hedge = sandbox.engine.positionModeOf(account, symbol) === 'hedge';
  const holdSide = text(body.holdSide);
  const idxs: PositionIdx[] = hedge ? (holdSide === 'long' ? [1] : holdSide === 'short' ? [2] : [1, 2]) : [0];
  const open = idxs.map((idx) => sandbox.engine.slot(account, symbol, idx)).filter((position) => position.side);
  if (!open.length) throw new ApiError('45006', 'Insufficient position');
  const successList = open.map((position) => {
    const order = sandbox.engine.place(account, {
      symbol, side: position.side === 'long' ? 'sell' : 'buy', type: 'market', qty: position.size, price: 0, reduceOnly: true,
      positionIdx: position.idx, clientId: '', kind: 'normal', labels: { orderSource: 'market' },
    });
    return { orderId: order.id, clientOid: order.clientId };
  });
  return { successList, failureList: [], result: true };
}

/**
 * Bitget one-way mode: when a new reduce-only order plus the open reduce-only orders exceed the position,
 * the older ones are cancelled (oldest first) and the answer for the new order carries no orderId.
 */
function makeRoomForReduceOnly(ctx: PrivateContext, request: PlaceRequest): Order[] {
  const { account, sandbox } = ctx;
  if (request.positionIdx !== 0 || !request.reduceOnly) return [];
  const position = sandbox.engine.slot(account, request.symbol, 0);
  if (!position.side || (position.side === 'long') === (request.side === 'buy')) return [];
  const resting = account.orders.filter((order) => order.kind === 'normal' && order.reduceOnly && isOpen(order) && order.symbol === request.symbol && order.positionIdx === 0);
  let total = resting.reduce((sum, order) => sum + order.qty - order.filledQty, request.qty);
  const cancelled: Order[] = [];
  for (const order of resting) {
    if (total <= position.size + 1e-12) break;
    total -= order.qty - order.filledQty;
    sandbox.engine.cancel(account, order);
    cancelled.push(order);
  }
  return cancelled;
}

/**
 * The presets of an opening order against the current price (40830/40834/40836/40832), and a one-way
 * reduce-only order larger than the position (40757, strictness bitgetOversizedReduceOnlyRefused).
 */
function checkPlace(ctx: PrivateContext, request: PlaceRequest): void {
  const { account, sandbox } = ctx;
  const position = sandbox.engine.slot(account, request.symbol, request.positionIdx);
  if (!request.reduceOnly) {
    const long = request.positionIdx === 0 ? request.side === 'buy' : request.positionIdx === 1;
    const current = sandbox.prices.last(request.symbol);
    if (request.takeProfit) checkTriggerSide(long, 'tp', request.takeProfit, current, 'fill_price');
    if (request.stopLoss) checkTriggerSide(long, 'sl', request.stopLoss, current, 'fill_price');
    if (riskLimitBreach(account, request, request.type === 'limit' ? request.price : current) !== undefined) {
      throw new ApiError('40921', 'The order size cannot exceed the maximum size of the positionLevel');
    }
    return;
  }
  const reduces = position.side !== null && (position.side === 'long') !== (request.side === 'buy');
  if (request.positionIdx === 0 && reduces && request.qty > position.size + 1e-12 && sandbox.strictness.bitgetOversizedReduceOnlyRefused) {
    throw new ApiError('40757', 'Not enough position is available.');
  }
}

/**
 * place-order: the order's marginMode must fit the symbol (45117) and then becomes the symbol's; presets and
 * reduce-only size are checked (checkPlace); a closing order with nothing to close is 22002. Older
 * reduce-only orders are cancelled to make room only once the new one can no longer be refused (their
 * cancellation is pushed on the private streams and cannot be taken back).
 */
function placeOrder(ctx: PrivateContext): Record<string, string> {
  const { account, sandbox } = ctx;
  const request = placeRequest(ctx);
  const marginMode = orderMarginMode(account, request.symbol, ctx.body.marginMode);
  checkPlace(ctx, request);
  sandbox.engine.precheck(account, request);
  const duplicate = request.clientId && account.orders.some((order) => order.clientId === request.clientId);
  const cancelled = duplicate ? [] : makeRoomForReduceOnly(ctx, request);
  const order = sandbox.engine.place(account, request);
  account.marginModes.set(request.symbol, marginMode);
  return cancelled.length ? { clientOid: order.clientId } : { orderId: order.id, clientOid: order.clientId };
}

export const bitgetOrderRoutes: RouteTable = {
  'POST /api/v2/mix/order/place-order': { access: 'trade', handle: placeOrder },
  'POST /api/v2/mix/order/cancel-order': {
    access: 'trade',
    handle: (ctx) => {
      requireUsdtFutures(ctx.body.productType);
      const order = findNormal(ctx, ctx.body);
      if (!isOpen(order)) throw new EngineError('orderNotFound', 'order is not open');
      ctx.sandbox.engine.cancel(ctx.account, order);
      return { orderId: order.id, clientOid: order.clientId };
    },
  },
  'GET /api/v2/mix/order/detail': {
    access: 'read',
    handle: (ctx) => {
      requireUsdtFutures(ctx.query.productType);
      symbolOf(ctx.query.symbol);
      return orderView(ctx.sandbox, ctx.account, findNormal(ctx, ctx.query));
    },
  },
  'GET /api/v2/mix/order/orders-pending': { access: 'read', handle: (ctx) => list(ctx, true) },
  'GET /api/v2/mix/order/orders-history': { access: 'read', handle: (ctx) => list(ctx, false) },
  'POST /api/v2/mix/order/close-positions': { access: 'trade', handle: closePositions },
};
