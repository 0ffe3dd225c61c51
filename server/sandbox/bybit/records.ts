import { execTypeOf } from '../account-events';
import { ApiError, type PrivateContext, type RouteTable } from '../http-types';
import { leverageOf } from '../margin';
import { formatNumber as num } from '../markets';
import { page, type Window } from '../records';
import type { Fill, Order } from '../types';
import { paramError } from './errors';
import { createTypeOf } from './format';

/**
 * The account's own records: `GET /v5/execution/list` (docs/v5/order/execution.mdx: every trade with its
 * execFee, funding settlements as execType Funding, liquidations as BustTrade) and `GET /v5/position/closed-pnl`
 * (docs/v5/position/close-pnl.mdx: one row per closing order, PnL net of its open and close fees). Both newest
 * first, `limit` 1-100 (default 50), `cursor` = the previous page's `nextPageCursor`, and a window of at most
 * 7 days (7 days back from now by default, from `startTime` or to `endTime`).
 */

const DAY = 86_400_000;
const MAX_WINDOW = 7 * DAY;

function windowOf(ctx: PrivateContext): Window {
  const start = ctx.query.startTime ? Number(ctx.query.startTime) : undefined;
  const end = ctx.query.endTime ? Number(ctx.query.endTime) : undefined;
  if ((start !== undefined && !Number.isFinite(start)) || (end !== undefined && !Number.isFinite(end))) throw paramError('startTime and endTime must be timestamps in ms');
  if (start !== undefined && end !== undefined) {
    if (end < start || end - start > MAX_WINDOW) throw new ApiError('10001', 'params error: endTime - startTime must be between 0 and 7 days');
    return { start, end };
  }
  if (start !== undefined) return { start, end: start + MAX_WINDOW };
  const until = end ?? ctx.sandbox.now();
  return { start: until - MAX_WINDOW, end: until };
}

function pagingOf(ctx: PrivateContext): { limit: number; cursor: number | undefined } {
  if (ctx.query.category !== 'linear') throw paramError('category only support linear');
  const limit = ctx.query.limit === undefined ? 50 : Number(ctx.query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw paramError('limit must be an integer from 1 to 100');
  const cursor = ctx.query.cursor ? Number(ctx.query.cursor) : undefined;
  if (cursor !== undefined && !Number.isInteger(cursor)) throw paramError('cursor is invalid');
  return { limit, cursor };
}

const sideText = (side: Fill['side']) => (side === 'buy' ? 'Buy' : 'Sell');

/** One execution/list row; the `execution` topic pushes the same row with its own fields added (bybit-private/frames.ts). */
export function executionView(fill: Fill, order: Order | undefined): Record<string, unknown> {
  const funding = fill.kind === 'funding';
  return {
    symbol: fill.symbol,
    orderId: fill.orderId,
    orderLinkId: fill.clientId,
    side: sideText(fill.side),
    orderPrice: num(order?.price ?? 0),
    orderQty: num(order?.qty ?? 0),
    leavesQty: num(order && !funding ? Math.max(order.qty - order.filledQty, 0) : 0),
    createType: funding || !order ? '' : createTypeOf(order),
    orderType: funding ? 'UNKNOWN' : order?.type === 'limit' ? 'Limit' : 'Market',
    stopOrderType: funding ? 'UNKNOWN' : order?.labels.stopOrderType || 'UNKNOWN',
    execFee: num(fill.fee),
    execId: fill.id,
    execPrice: num(fill.price),
    execQty: num(fill.qty),
    execType: execTypeOf(fill),
    execValue: num(fill.qty * fill.price),
    execTime: String(fill.time),
    feeCurrency: '',
    isMaker: fill.maker,
    feeRate: num(fill.feeRate),
    tradeIv: '',
    markIv: '',
    markPrice: num(fill.markPrice),
    indexPrice: '',
    underlyingPrice: '',
    blockTradeId: '',
    closedSize: num(fill.closedSize),
    seq: fill.seq,
    extraFees: '',
  };
}

/** orderId > orderLinkId > symbol, as execution.mdx ranks them; execType Trade, Funding or BustTrade. */
function executions(ctx: PrivateContext): Record<string, unknown> {
  const { limit, cursor } = pagingOf(ctx);
  const q = ctx.query;
  const now = ctx.sandbox.now();
  const orders = new Map(ctx.account.orders.map((order) => [order.id, order]));
  const rows = ctx.account.fills.filter((fill) => {
    const order = orders.get(fill.orderId);
    if (order && order.visibleAt > now) return false;
    if (q.orderId) return fill.orderId === q.orderId;
    if (q.orderLinkId) return fill.clientId === q.orderLinkId && fill.clientId !== '';
    return (!q.symbol || fill.symbol === q.symbol) && (!q.execType || execTypeOf(fill) === q.execType);
  });
  const chosen = page(rows, windowOf(ctx), cursor, limit);
  return { category: 'linear', list: chosen.rows.map((fill) => executionView(fill, orders.get(fill.orderId))), nextPageCursor: chosen.next === undefined ? '' : String(chosen.next) };
}

interface ClosedRow {
  seq: number;
  time: number;
  order: Order | undefined;
  fills: Fill[];
}

/** One closed-pnl row per order that closed (part of) a position. */
function closedRows(ctx: PrivateContext): ClosedRow[] {
  const orders = new Map(ctx.account.orders.map((order) => [order.id, order]));
  const rows = new Map<string, ClosedRow>();
  for (const fill of ctx.account.fills) {
    if (fill.kind === 'funding' || fill.closedSize <= 0 || (ctx.query.symbol && fill.symbol !== ctx.query.symbol)) continue;
    const row = rows.get(fill.orderId) ?? { seq: fill.seq, time: fill.time, order: orders.get(fill.orderId), fills: [] };
    row.fills.push(fill);
    Object.assign(row, { seq: fill.seq, time: fill.time });
    rows.set(fill.orderId, row);
  }
  return [...rows.values()].sort((a, b) => a.seq - b.seq);
}

function closedView(ctx: PrivateContext, row: ClosedRow): Record<string, unknown> {
  const first = row.fills[0] as Fill;
  let closedSize = 0;
  let entryValue = 0;
  let exitValue = 0;
  let pnl = 0;
  let openFee = 0;
  let closeFee = 0;
  for (const fill of row.fills) {
    closedSize += fill.closedSize;
    entryValue += fill.closedSize * fill.entryPrice;
    exitValue += fill.closedSize * fill.price;
    pnl += fill.pnl;
    openFee += fill.openFee;
    closeFee += (fill.fee * fill.closedSize) / fill.qty;
  }
  const order = row.order;
  return {
    symbol: first.symbol,
    orderId: first.orderId,
    side: sideText(first.side),
    qty: num(order?.qty ?? closedSize),
    orderPrice: num(order?.price || first.price),
    orderType: order?.type === 'limit' ? 'Limit' : 'Market',
    execType: execTypeOf(first),
    closedSize: num(closedSize),
    cumEntryValue: num(entryValue),
    avgEntryPrice: num(entryValue / closedSize),
    cumExitValue: num(exitValue),
    avgExitPrice: num(exitValue / closedSize),
    closedPnl: num(pnl - openFee - closeFee),
    fillCount: String(row.fills.length),
    leverage: num(leverageOf(ctx.account, first.symbol, first.positionIdx, first.positionSide)),
    openFee: num(openFee),
    closeFee: num(closeFee),
    createdTime: String(first.time),
    updatedTime: String(row.time),
  };
}

function closedPnl(ctx: PrivateContext): Record<string, unknown> {
  const { limit, cursor } = pagingOf(ctx);
  const chosen = page(closedRows(ctx), windowOf(ctx), cursor, limit);
  return { category: 'linear', list: chosen.rows.map((row) => closedView(ctx, row)), nextPageCursor: chosen.next === undefined ? '' : String(chosen.next) };
}

export const bybitRecordRoutes: RouteTable = {
  'GET /v5/execution/list': { access: 'read', handle: executions },
  'GET /v5/position/closed-pnl': { access: 'read', handle: closedPnl },
};
