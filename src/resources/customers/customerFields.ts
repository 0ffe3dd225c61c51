import type { Customer } from '../../../contract/api/customer';
import { customerGroupLabels, exchangeLabels, genderLabels, type CustomerGroup, type Exchange, type Gender } from '../../../contract/enums';
import { formatDate } from '../../components/formatDate';

/** The read-only profile fields of a customer (labels are translation keys of resources.customers.fields). */
export function customerFields(customer: Customer): { key: string; value: string }[] {
  const { account } = customer;
  return [
    { key: 'customerId', value: String(customer.id) },
    { key: 'firstName', value: account.firstName },
    { key: 'lastName', value: account.lastName },
    { key: 'email', value: account.email },
    { key: 'age', value: account.age === null ? '' : String(account.age) },
    { key: 'phone', value: account.phone ?? '' },
    { key: 'gender', value: account.gender ? (genderLabels[account.gender as Gender] ?? '') : '' },
    { key: 'country', value: account.country?.name ?? '' },
    { key: 'agent', value: customer.agent ? `${customer.agent.firstName} ${customer.agent.lastName}` : '' },
    { key: 'group', value: customer.group ? (customerGroupLabels[customer.group as CustomerGroup] ?? '') : '' },
    { key: 'platformType', value: exchangeLabels[customer.platformType as Exchange] ?? '' },
    { key: 'registrationId', value: customer.registrationId ?? '' },
    { key: 'since', value: formatDate(customer.datetimeInserted) },
  ];
}
