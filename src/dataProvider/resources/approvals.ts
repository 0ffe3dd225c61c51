import { accountRoutes } from '../../../contract/api/account';
import { customerRoutes, type Customer } from '../../../contract/api/customer';
import { AccountStatus } from '../../../contract/enums';
import type { RouteBodyInput } from '../../../contract/route';
import { callRoute } from '../http';
import { asRecord, toListResult, wirePage } from '../paging';
import type { ResourceEndpoints } from '../types';
import { toCustomerFilter } from './customerFilter';

/** Without a chosen status the pending list shows Pending (1) and Rejected (5) (spec 9). */
export const APPROVAL_DEFAULT_STATUSES = [AccountStatus.Pending, AccountStatus.Rejected] as const;

export type NewCredentials = RouteBodyInput<typeof customerRoutes.credentials>;

/** approvals: customers waiting for a decision, through POST /api/customer/filter and GET /api/customer/{id}. */
export const approvalEndpoints: ResourceEndpoints<Customer> = {
  async getList(params) {
    const filter = toCustomerFilter(params.filter);
    if (filter.statuses.length === 0) filter.statuses = [...APPROVAL_DEFAULT_STATUSES];
    return toListResult(await callRoute(customerRoutes.filter, { body: { ...wirePage(params), filter } }), asRecord);
  },
  async getOne(params) {
    return { data: await callRoute(customerRoutes.byId, { params: { id: Number(params.id) } }) };
  },
};

/** Spec 4 "New customer": the status first, then the exchange credentials when new ones were typed. */
async function decide(customer: Customer, status: typeof AccountStatus.Active | typeof AccountStatus.Rejected, credentials: NewCredentials | undefined) {
  const result = await callRoute(accountRoutes.changeStatus, { params: { accountId: customer.account.id }, body: { status } });
  if (credentials) await callRoute(customerRoutes.credentials, { params: { id: customer.id }, body: credentials });
  return result;
}

export const approvalActions = {
  /** Approve (status 3), then save new credentials if any. */
  approveCustomer: (customer: Customer, credentials?: NewCredentials) => decide(customer, AccountStatus.Active, credentials),
  /** Reject (status 5), then save new credentials if any. */
  rejectCustomer: (customer: Customer, credentials?: NewCredentials) => decide(customer, AccountStatus.Rejected, credentials),
};
