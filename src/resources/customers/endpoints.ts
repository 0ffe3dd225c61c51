import { customerRoutes, type Customer } from '../../../contract/api/customer';
import { callRoute } from '../../dataProvider/http';
import { asRecord, toListResult, wirePage } from '../../dataProvider/paging';
import type { ResourceEndpoints } from '../../dataProvider/types';
import { toCustomerFilter, toCustomerSort } from './customerFilter';

/**
 * customers: POST /api/customer/filter, or POST /api/customer/search/fullname while a name is
 * searched (`filter.q`); GET and DELETE /api/customer/{id}.
 */
export const customerEndpoints: ResourceEndpoints<Customer> = {
  async getList(params) {
    const page = wirePage(params);
    const text: unknown = params.filter?.q;
    if (typeof text === 'string' && text.trim() !== '') {
      return toListResult(await callRoute(customerRoutes.searchFullName, { body: { ...page, text } }), asRecord);
    }
    const body = { ...page, filter: toCustomerFilter(params.filter), sort: toCustomerSort(params.sort) };
    return toListResult(await callRoute(customerRoutes.filter, { body }), asRecord);
  },
  async getOne(params) {
    return { data: await callRoute(customerRoutes.byId, { params: { id: Number(params.id) } }) };
  },
  async delete(params) {
    await callRoute(customerRoutes.remove, { params: { id: Number(params.id) } });
    return { data: params.previousData ?? ({ id: Number(params.id) } as Customer) };
  },
};
