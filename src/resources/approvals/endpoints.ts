import { customerRoutes, type Customer } from '../../../contract/api/customer';
import { AccountStatus } from '../../../contract/enums';
import { callRoute } from '../../dataProvider/http';
import { asRecord, toListResult, wirePage } from '../../dataProvider/paging';
import type { ResourceEndpoints } from '../../dataProvider/types';
import { toCustomerFilter } from '../customers/customerFilter';

/** Without a chosen status the pending list shows Pending (1) and Rejected (5) (spec 9). */
export const APPROVAL_DEFAULT_STATUSES = [AccountStatus.Pending, AccountStatus.Rejected] as const;

/** approvals: customers waiting for a decision, through POST /api/customer/filter. */
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
