import type { DefaultValues } from 'react-hook-form';
import { z } from 'zod';
import { customerCreateBody } from '../../../contract/api/customer';
import { AccountType, CustomerGroup, ENABLED_EXCHANGES } from '../../../contract/enums';
import { validation } from '../../../contract/messages';
import { personWithPasswordSchema } from '../../components/form/personSchema';
import type { NewCustomer } from '../../dataProvider/resources/customers';

const { accountId: _accountId, ...customerFields } = customerCreateBody.shape;

/**
 * The Add customer form (spec 5): the account schema and the customer schema of the contract
 * (POST /api/account, POST /api/customer), with the spec's texts for the selections.
 */
export const customerCreateSchema = z
  .object({
    account: personWithPasswordSchema,
    customer: z.object({
      ...customerFields,
      agentId: z.number({ error: validation.selectAgent }).int().positive(validation.selectAgent),
      platformType: z.number({ error: validation.selectExchange }).refine((value) => ENABLED_EXCHANGES.includes(value as (typeof ENABLED_EXCHANGES)[number]), validation.selectExchange),
    }),
  })
  // `when`: the group is asked for together with the other missing fields, not only once they are valid.
  .refine((values) => hasGroupOrExclusive(values as Partial<typeof values>), { path: ['customer', 'group'], error: validation.selectGroupOrExclusive, when: () => true });

function hasGroupOrExclusive(values: { customer?: { isExclusive?: boolean; group?: number | null } }): boolean {
  return values.customer?.isExclusive === true || values.customer?.group != null;
}

/** What the form holds (the schema's input; the server parses it with the same schema). */
export type CustomerCreateValues = z.input<typeof customerCreateSchema>;

export const emptyCustomerCreate: DefaultValues<CustomerCreateValues> = { customer: { group: null, isExclusive: false } };

/** The validated form as the data provider's new customer (an exclusive customer is in group Exclusive). */
export function toNewCustomer(values: CustomerCreateValues): NewCustomer {
  const { customer } = values;
  return {
    account: { ...values.account, accountType: AccountType.Customer },
    customer: { ...customer, group: customer.isExclusive ? CustomerGroup.Exclusive : customer.group },
  };
}
