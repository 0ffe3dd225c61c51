import { orderRoutes, type Order } from '../../../contract/api/order';
import { callRoute } from '../../dataProvider/http';
import { asRecord, toListResult, wirePage } from '../../dataProvider/paging';
import type { ResourceEndpoints } from '../../dataProvider/types';

/** The list's filter keys as the order search's filter names (spec 7). */
const FILTER_NAMES = { symbol: 'strategy.symbol', month: 'datetimeInserted', id: 'id' } as const;

/** orders: POST /api/order/search; closing an order is PATCH /api/order/{id}. */
export const orderEndpoints: ResourceEndpoints<Order> = {
  async getList(params) {
    const filter = Object.entries(FILTER_NAMES).flatMap(([key, name]) => {
      const value: unknown = params.filter?.[key];
      return typeof value === 'string' && value !== '' ? [{ name, value }] : [];
    });
    return toListResult(await callRoute(orderRoutes.search, { body: { ...wirePage(params), filter } }), asRecord);
  },
  async update(params) {
    return { data: await callRoute(orderRoutes.close, { params: { id: Number(params.id) } }) };
  },
};
