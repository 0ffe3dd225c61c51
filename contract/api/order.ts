import { z } from 'zod';
import { filterItemNamed, idParam, pageRequest } from '../common';
import { pagedOf } from '../envelope';
import { defineRoute, ErrorStatus } from '../route';

/**
 * Orders (the spec's "transactions"). Filter names: `id` (order id), `datetimeInserted` (a month
 * YYYY-MM, UTC), `strategy.symbol` (exact symbol; TradingView's `.P` suffix is ignored).
 */
export const strategyRef = z.object({ id: z.string(), symbol: z.string() });

export const closeProgress = z.object({
  total: z.number().int().nonnegative(),
  closed: z.number().int().nonnegative(),
  open: z.number().int().nonnegative(),
});
export type CloseProgress = z.infer<typeof closeProgress>;

export const order = z.object({
  id: z.number().int(),
  strategy: strategyRef,
  /** OrderStatus: 1 Active, 2 Win, 3 Loss. */
  status: z.number().int(),
  entryType: z.number().int(),
  side: z.number().int(),
  realizedPnl: z.number(),
  /** A close was asked for and positions are still being closed: the order's toggle shows off already. */
  closing: z.boolean(),
  /**
   * How far the asked-for close got (null while no close was asked for): `total` executions held a
   * position (state open or closed), `closed` of them are closed, `open` still hold theirs.
   */
  closeProgress: closeProgress.nullable(),
  datetimeInserted: z.string(),
  datetimeUpdated: z.string(),
});
export type Order = z.infer<typeof order>;

/** One customer's part of an order, as that customer sees it. */
export const customerExecution = z.object({
  id: z.number().int(),
  orderId: z.number().int(),
  strategy: strategyRef,
  side: z.number().int(),
  entryType: z.number().int(),
  /** The order's status: 1 Active, 2 Win, 3 Loss. */
  status: z.number().int(),
  /** This customer's position: pending, open, closed, failed or skipped. */
  state: z.string(),
  quantity: z.number().nullable(),
  entryPrice: z.number().nullable(),
  realizedPnl: z.number(),
  datetimeInserted: z.string(),
  datetimeUpdated: z.string(),
});
export type CustomerExecution = z.infer<typeof customerExecution>;

/** The filter names both order searches read; any other is refused (400), not ignored. */
export const ORDER_FILTER_NAMES = ['id', 'datetimeInserted', 'strategy.symbol'] as const;

export const orderSearchBody = pageRequest.extend({ filter: z.array(filterItemNamed(ORDER_FILTER_NAMES)).max(20, 'filter may list at most 20 items').default([]) });

export const orderStatistics = z.object({ win: z.number().int(), loss: z.number().int(), totalDeal: z.number().int() });

export const orderRoutes = {
  search: defineRoute({
    method: 'POST', path: '/api/order/search', access: 'staffRead', tag: 'orders',
    summary: 'Orders, newest first; filter names id, datetimeInserted (YYYY-MM) and strategy.symbol',
    body: orderSearchBody, data: pagedOf(order),
  }),
  statistics: defineRoute({
    method: 'GET', path: '/api/order/statistics', access: 'staffRead', tag: 'orders',
    summary: 'Counts of won, lost and all orders (TotalDeal)', data: orderStatistics,
  }),
  symbols: defineRoute({
    method: 'GET', path: '/api/order/symbol/all', access: 'staffRead', tag: 'orders',
    summary: 'Symbols that have orders, for the symbol filter', data: z.object({ symbols: z.array(z.string()) }),
  }),
  transactionIds: defineRoute({
    method: 'GET', path: '/api/order/transactionids/all', access: 'staffRead', tag: 'orders',
    summary: 'Every order id (transaction id), newest first, for the audit filters', data: z.array(z.number().int()),
  }),
  close: defineRoute({
    method: 'PATCH', path: '/api/order/:id', access: 'adminTrading', tag: 'orders',
    summary: "Close every customer's position of the order at market (reduce-only); cannot be undone. 409 when the order is closed or already being closed",
    params: z.object({ id: idParam }), data: order, errors: [ErrorStatus.NotFound, ErrorStatus.Conflict],
  }),
  customerSearch: defineRoute({
    method: 'POST', path: '/api/customer/orders/search', access: 'customerOwn', tag: 'orders',
    summary: "The signed-in customer's own executions with their realized PnL; same filters as the order search",
    body: orderSearchBody, data: pagedOf(customerExecution), ownRecordsOnly: true,
  }),
};
