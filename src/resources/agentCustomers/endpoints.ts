import { agentRoutes } from '../../../contract/api/agent';
import type { Customer } from '../../../contract/api/customer';
import { callRoute } from '../../dataProvider/http';
import { asRecord, toListResult, wirePage } from '../../dataProvider/paging';
import type { ResourceEndpoints } from '../../dataProvider/types';
import { toCustomerFilter, toCustomerSort } from '../customers/customerFilter';

/** agentCustomers: the signed-in agent's own customers (filter, or name search while `filter.q` is set). */
export const agentCustomerEndpoints: ResourceEndpoints<Customer> = {
  async getList(params) {
    const page = wirePage(params);
    const text: unknown = params.filter?.q;
    if (typeof text === 'string' && text.trim() !== '') {
      return toListResult(await callRoute(agentRoutes.ownCustomersSearch, { body: { ...page, text } }), asRecord);
    }
    const sort = toCustomerSort(params.sort);
    const body = { ...page, filter: toCustomerFilter(params.filter), sort: sort?.name === 'currentWalletAmount' ? sort : null };
    return toListResult(await callRoute(agentRoutes.ownCustomersFilter, { body }), asRecord);
  },
};
