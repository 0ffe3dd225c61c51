import type { PrivateContext, RouteTable } from '../http-types';
import { formatNumber as num } from '../markets';
import { page, type Window } from '../records';
import type { Fill, Order } from '../types';
import { paramError } from './errors';
import { enterPointSourceOf, tradeSideOf } from './format';
import { requireUsdtFutures } from './orders';

/**
 * The account's own records: `GET /api/v2/mix/order/fills` (contract/trade/Get-Order-Fills: each trade with its
 * `feeDetail`, `profit`, `tradeScope`) and `GET /api/v2/mix/account/bill` (contract/account/Get-Account-Bill:
 * one bill per trade, liquidation and funding settlement, `businessType` as ccxt's bitget.js names them:
 * open_long/close_short in hedge mode, buy/sell in one-way mode, burst_* for liquidations, contract_settle_fee
 * for funding). Newest first, `limit` at most 100 (default 100), `idLessThan` = the previous page's `endId`.
 */

/** Trade and bill ids: the record's sequence above a base, so `idLessThan` pages by sequence. */
const TRADE_ID_BASE = 1_200_000_000_000_000_000n;
const BILL_ID_BASE = 1_100_000_000_000_000_000n;

function pagingOf(ctx: PrivateContext, base: bigint): { limit: number; cursor: number | undefined; window: Window } {
  requireUsdtFutures(ctx.query.productType);
  const limit = ctx.query.limit === undefined ? 100 : Number(ctx.query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw paramError('limit must be an integer from 1 to 100');
  let cursor: number | undefined;
  try {
    cursor = ctx.query.idLessThan ? Number(BigInt(ctx.query.idLessThan) - base) : undefined;
  } catch {
    throw paramError('idLessThan is invalid');
  }
  const start = ctx.query.startTime ? Number(ctx.query.startTime) : 0;
  const end = ctx.query.endTime ? Number(ctx.query.endTime) : Number.MAX_SAFE_INTEGER;
  if (!Number.isFinite(start) || !Number.isFinite(end)) throw paramError('startTime and endTime must be timestamps in ms');
  return { limit, cursor, window: { start, end } };
}

const idOf = (base: bigint, seq: number) => String(base + BigInt(seq));

/** The order's tradeSide (a liquidation's burst_*, format.ts); without its order, the record's own terms. */
function tradeSideOfFill(fill: Fill, order: Order | undefined): string {
  if (order) return tradeSideOf(order);
  return fill.positionIdx === 0 ? `${fill.side}_single` : fill.effect;
}

function fillView(fill: Fill, order: Order | undefined): Record<string, unknown> {
  return {
    tradeId: idOf(TRADE_ID_BASE, fill.seq),
    symbol: fill.symbol,
    orderId: fill.orderId,
    price: num(fill.price),
    baseVolume: num(fill.qty),
    feeDetail: [{ deduction: 'no', feeCoin: 'USDT', totalDeductionFee: '0', totalFee: num(-fill.fee) }],
    side: order?.labels.side ?? fill.side,
    quoteVolume: num(fill.qty * fill.price),
    profit: num(fill.pnl),
    enterPointSource: order ? enterPointSourceOf(order) : 'API',
    tradeSide: tradeSideOfFill(fill, order),
    posMode: fill.positionIdx === 0 ? 'one_way_mode' : 'hedge_mode',
    tradeScope: fill.maker ? 'maker' : 'taker',
    cTime: String(fill.time),
  };
}

function fills(ctx: PrivateContext): Record<string, unknown> {
  const { limit, cursor, window } = pagingOf(ctx, TRADE_ID_BASE);
  const q = ctx.query;
  const now = ctx.sandbox.now();
  const orders = new Map(ctx.account.orders.map((order) => [order.id, order]));
  const rows = ctx.account.fills.filter(
    (fill) => fill.kind !== 'funding' && (orders.get(fill.orderId)?.visibleAt ?? 0) <= now && (!q.symbol || fill.symbol === q.symbol) && (!q.orderId || fill.orderId === q.orderId),
  );
  const chosen = page(rows, window, cursor, limit);
  const views = chosen.rows.map((fill) => fillView(fill, orders.get(fill.orderId)));
  return { fillList: views.length ? views : null, endId: chosen.rows.length ? idOf(TRADE_ID_BASE, (chosen.rows[chosen.rows.length - 1] as Fill).seq) : null };
}

function businessTypeOf(fill: Fill): string {
  if (fill.kind === 'funding') return 'contract_settle_fee';
  const oneWay = fill.positionIdx === 0;
  if (fill.kind === 'liquidation') return oneWay ? `burst_${fill.side}` : `burst_${fill.positionSide}_loss_query`;
  return oneWay ? fill.side : `${fill.effect}_${fill.positionSide}`;
}

function billView(fill: Fill): Record<string, unknown> {
  const funding = fill.kind === 'funding';
  return {
    billId: idOf(BILL_ID_BASE, fill.seq),
    symbol: fill.symbol,
    amount: num(funding ? -fill.fee : fill.pnl),
    fee: num(funding ? 0 : -fill.fee),
    feeByCoupon: '',
    businessType: businessTypeOf(fill),
    coin: 'USDT',
    balance: num(fill.walletAfter),
    cTime: String(fill.time),
  };
}

function bills(ctx: PrivateContext): Record<string, unknown> {
  const { limit, cursor, window } = pagingOf(ctx, BILL_ID_BASE);
  const q = ctx.query;
  if (q.coin && q.coin !== 'USDT') return { bills: [], endId: null };
  const rows = ctx.account.fills.filter((fill) => (!q.symbol || fill.symbol === q.symbol) && (!q.businessType || businessTypeOf(fill) === q.businessType));
  const chosen = page(rows, window, cursor, limit);
  return { bills: chosen.rows.map(billView), endId: chosen.rows.length ? idOf(BILL_ID_BASE, (chosen.rows[chosen.rows.length - 1] as Fill).seq) : null };
}

export const bitgetRecordRoutes: RouteTable = {
  'GET /api/v2/mix/order/fills': { access: 'read', handle: fills },
  'GET /api/v2/mix/account/bill': { access: 'read', handle: bills },
};
