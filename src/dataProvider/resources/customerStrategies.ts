import { strategyRoutes, type CustomerStrategy } from '../../../contract/api/strategy';
import { callRoute } from '../http';
import { asRecord, toListResult, wirePage } from '../paging';
import type { ResourceEndpoints } from '../types';

/** customerStrategies: the strategies of the signed-in customer's group, read-only. */
export const customerStrategyEndpoints: ResourceEndpoints<CustomerStrategy> = {
  async getList(params) {
    return toListResult(await callRoute(strategyRoutes.customerSearch, { body: { ...wirePage(params), filter: [] } }), asRecord);
  },
};
