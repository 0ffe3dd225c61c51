import { agentRoutes } from '../../../contract/api/agent';
import type { Customer } from '../../../contract/api/customer';
import { callRoute } from '../http';
import { asRecord, toListResult, wirePage } from '../paging';
import type { ResourceEndpoints } from '../types';
import { toCustomerFilter, toCustomerSort } from './customerFilter';
import { nameSearchOf } from './customers';

/** agentCustomers: the signed-in agent's own customers (filter, or name search while `filter.q` is set). */
export const agentCustomerEndpoints: ResourceEndpoints<Customer> = {
  async getList(params) {
    const page = wirePage(params);
    const text = nameSearchOf(params.filter);
    if (text) return toListResult(await callRoute(agentRoutes.ownCustomersSearch, { body: { ...page, text } }), asRecord);
    const sort = toCustomerSort(params.sort);
    const body = { ...page, filter: toCustomerFilter(params.filter), sort: sort?.name === 'currentWalletAmount' ? sort : null };
    return toListResult(await callRoute(agentRoutes.ownCustomersFilter, { body }), asRecord);
  },
};

export const agentCustomerActions = {
  /** Active and Blocked counts of the agent's own customers. */
  getOwnCustomerStatistics: () => callRoute(agentRoutes.ownCustomersStatistics),
};
