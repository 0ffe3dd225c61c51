import { accountRoutes } from '../../../contract/api/account';
import { customerRoutes, type Customer } from '../../../contract/api/customer';
import type { CustomerGroup } from '../../../contract/enums';
import type { RouteBodyInput } from '../../../contract/route';
import { callRoute } from '../http';
import { asRecord, deletedRecord, toListResult, wirePage } from '../paging';
import type { ResourceEndpoints } from '../types';
import { toCustomerFilter, toCustomerSort } from './customerFilter';

/** What the Add customer form creates: the account (POST /api/account), then the customer (POST /api/customer). */
export interface NewCustomer {
  account: RouteBodyInput<typeof accountRoutes.create>;
  customer: Omit<RouteBodyInput<typeof customerRoutes.create>, 'accountId'>;
}

/** A typed name search lives in the list's `q` filter (it never reaches the query string). */
export function nameSearchOf(filter: Partial<Record<string, unknown>> | undefined): string | undefined {
  const text = filter?.q;
  return typeof text === 'string' && text.trim() !== '' ? text.trim() : undefined;
}

/**
 * customers: POST /api/customer/filter, or POST /api/customer/search/fullname while a name is
 * searched; GET, DELETE /api/customer/{id}; create = POST /api/account + POST /api/customer.
 */
export const customerEndpoints: ResourceEndpoints<Customer, NewCustomer> = {
  async getList(params) {
    const page = wirePage(params);
    const text = nameSearchOf(params.filter);
    if (text) return toListResult(await callRoute(customerRoutes.searchFullName, { body: { ...page, text } }), asRecord);
    const body = { ...page, filter: toCustomerFilter(params.filter), sort: toCustomerSort(params.sort) };
    return toListResult(await callRoute(customerRoutes.filter, { body }), asRecord);
  },
  async getOne(params) {
    return { data: await callRoute(customerRoutes.byId, { params: { id: Number(params.id) } }) };
  },
  async create({ data }) {
    if (!data.account || !data.customer) throw new Error('A new customer needs its account and its exchange details');
    const account = await callRoute(accountRoutes.create, { body: data.account });
    return { data: await callRoute(customerRoutes.create, { body: { ...data.customer, accountId: account.id } }) };
  },
  async delete(params) {
    await callRoute(customerRoutes.remove, { params: { id: Number(params.id) } });
    return { data: deletedRecord(params) };
  },
};

/** The customer actions of spec 2 and 7 that are not CRUD. */
export const customerActions = {
  /** Pending, Rejected, Active and Blocked counts (GET /api/customer/statistics). */
  getCustomerStatistics: () => callRoute(customerRoutes.statistics),
  /** customers.xlsx as base64 (POST /api/customer/export). */
  exportCustomers: () => callRoute(customerRoutes.export),
  /** 'Convert': every customer of one group moves to another (POST /api/customer/group/bulk). */
  convertCustomerGroups: (originalGroup: CustomerGroup, finalGroup: CustomerGroup) => callRoute(customerRoutes.bulkGroup, { body: { originalGroup, finalGroup } }),
  /** Sets one customer's group (PATCH /api/customer/{id}/group). */
  changeCustomerGroup: (customerId: number, group: CustomerGroup) => callRoute(customerRoutes.group, { params: { id: customerId }, body: { group } }),
  /** Replaces a customer's exchange credentials (PUT /api/customer/{id}/short). */
  replaceCustomerCredentials: (customerId: number, body: RouteBodyInput<typeof customerRoutes.credentials>) =>
    callRoute(customerRoutes.credentials, { params: { id: customerId }, body }),
  /** Customers of group Exclusive whose name contains `text` (the strategy form's exclusive customer). */
  searchExclusiveCustomers: (text: string) => callRoute(customerRoutes.searchExclusive, { body: { text, pageIndex: 0 } }),
  /** The signed-in customer's own record (GET /api/customer). */
  getOwnCustomer: () => callRoute(customerRoutes.own),
};
