import { orderRoutes, type CustomerExecution } from '../../../contract/api/order';
import { strategyRoutes } from '../../../contract/api/strategy';
import { callRoute } from '../../dataProvider/http';
import { asRecord, toListResult, wirePage } from '../../dataProvider/paging';
import type { ResourceEndpoints } from '../../dataProvider/types';

/** customerOrders: the signed-in customer's executions (filters month and symbol like the staff list). */
export const customerOrderEndpoints: ResourceEndpoints<CustomerExecution> = {
  async getList(params) {
    const filter: { name: string; value: string }[] = [];
    const { month, symbol } = (params.filter ?? {}) as { month?: string; symbol?: string };
    if (month) filter.push({ name: 'datetimeInserted', value: month });
    if (symbol) filter.push({ name: 'strategy.symbol', value: symbol });
    return toListResult(await callRoute(orderRoutes.customerSearch, { body: { ...wirePage(params), filter } }), asRecord);
  },
};

/** customerStrategies: the strategies of the customer's group, read-only. */
export const customerStrategyEndpoints: ResourceEndpoints = {
  async getList(params) {
    return toListResult(await callRoute(strategyRoutes.customerSearch, { body: { ...wirePage(params), filter: [] } }), asRecord);
  },
};
