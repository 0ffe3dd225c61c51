import type { CustomerFilter, CustomerSort } from '../../../contract/api/customer';
import { customerSortNames } from '../../../contract/api/customer';
import type { SortType } from '../../../contract/enums';

/** The customer lists' query parameters (spec 2), one value each. */
export const CUSTOMER_FILTERS = ['country', 'agent', 'status', 'group', 'month', 'platformType'] as const;
export type CustomerFilterName = (typeof CUSTOMER_FILTERS)[number];

const numbers = (value: unknown): number[] => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) ? [n] : [];
};

/** react-admin's filter object (query values) as the wire's `filter` of POST /api/customer/filter. */
export function toCustomerFilter(filter: Partial<Record<string, unknown>> | undefined): CustomerFilter {
  const month = filter?.month;
  return {
    statuses: numbers(filter?.status) as CustomerFilter['statuses'],
    countryIds: numbers(filter?.country),
    agentIds: numbers(filter?.agent),
    groups: numbers(filter?.group) as CustomerFilter['groups'],
    datetimesInserted: typeof month === 'string' && month !== '' ? [month] : [],
    platformTypes: numbers(filter?.platformType) as CustomerFilter['platformTypes'],
  };
}

/** react-admin's sort as the customer sort, when it names a sortable field. */
export function toCustomerSort(sort: { field: string; order: string } | undefined): CustomerSort | null {
  const name = customerSortNames.find((field) => field === sort?.field);
  if (!name) return null;
  return { name, type: (sort?.order === 'DESC' ? 2 : 1) as SortType };
}
