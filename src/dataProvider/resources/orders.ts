import { orderRoutes, type CustomerExecution, type Order } from '../../../contract/api/order';
import { HttpError } from 'ra-core';
import { server as messages } from '../../../contract/messages';
import { callRoute } from '../http';
import { asRecord, filterList, toListResult, wirePage } from '../paging';
import type { ResourceEndpoints } from '../types';

/** The order lists' filters (query parameters) and their names in the order searches (spec 7). */
const FILTER_NAMES = { symbol: 'strategy.symbol', month: 'datetimeInserted', id: 'id' } as const;

/** orders: POST /api/order/search (one order: the search by its id). */
export const orderEndpoints: ResourceEndpoints<Order> = {
  async getList(params) {
    const filter = filterList(params.filter, FILTER_NAMES);
    return toListResult(await callRoute(orderRoutes.search, { body: { ...wirePage(params), filter } }), asRecord);
  },
  async getOne(params) {
    const page = await callRoute(orderRoutes.search, { body: { pageIndex: 0, pageSize: 1, filter: [{ name: FILTER_NAMES.id, value: String(params.id) }] }, signal: params.signal });
    const [order] = page.data;
    if (!order) throw new HttpError(messages.notFound('Order'), 404);
    return { data: order };
  },
};

/** customerOrders: the signed-in customer's executions, with the same filters as the staff list. */
export const customerOrderEndpoints: ResourceEndpoints<CustomerExecution> = {
  async getList(params) {
    const filter = filterList(params.filter, FILTER_NAMES);
    return toListResult(await callRoute(orderRoutes.customerSearch, { body: { ...wirePage(params), filter } }), asRecord);
  },
};

export const orderActions = {
  /** Closes every customer's position of the order at market (PATCH /api/order/{id}); answers the order. */
  closePosition: (orderId: number) => callRoute(orderRoutes.close, { params: { id: orderId } }),
  /** TotalDeal, Win and Loss. */
  getOrderStatistics: () => callRoute(orderRoutes.statistics),
  /** Symbols that have orders (the symbol filters). */
  getOrderSymbols: () => callRoute(orderRoutes.symbols),
  /** Every order id (the audits' transaction filter). */
  getTransactionIds: () => callRoute(orderRoutes.transactionIds),
};
