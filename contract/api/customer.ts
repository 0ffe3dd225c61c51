import { z } from 'zod';
import { EXCLUSIVE_SEARCH_PAGE_SIZE } from '../constants';
import { AccountStatus, ApplicationSource, CustomerGroup, ENABLED_EXCHANGES, Exchange, NO_EXCHANGE, enumValues } from '../enums';
import { id, idOf, idParam, month, numberOneOf as oneOf, pageRequestOf, sort, text } from '../common';
import { pagedOf, success } from '../envelope';
import { validation } from '../messages';
import { defineRoute, ErrorStatus } from '../route';
import { account } from './account';


const groupList = 'Gold 1, Internal 2, Vip 3, Occasion 4 or Exclusive 5';
export const customerGroupValue = oneOf(enumValues(CustomerGroup), `group must be ${groupList}`);
export const accountStatusValue = oneOf(
  enumValues(AccountStatus),
  'status must be 1 (Pending), 2 (Blocked), 3 (Active), 4 (Incomplete) or 5 (Rejected)',
);
/** Any exchange id, or 0 (none connected): used by filters. */
export const platformTypeValue = oneOf([NO_EXCHANGE, ...enumValues(Exchange)], 'platformType must be 0 (none), 1 (Bitget), 2 (Bybit), 3 (Binance) or 4 (OKX)');
/** An exchange a customer can be connected to today (Binance and OKX are 'Coming soon'). */
export const enabledExchange = oneOf(ENABLED_EXCHANGES, `${validation.selectExchange}: platformType must be 1 (Bitget) or 2 (Bybit)`);

const credential = (name: string) => text({ error: `${name} is required` }).trim().min(1, `${name} is required`).max(512, `${name} is too long`);
const optionalPassphrase = text().trim().max(512, 'passphrase is too long').nullish().transform((v) => (v ? v : null));
const ids = (name: string) => z.array(id).max(200, `${name} may list at most 200 values`);
const list = (name: string, max: number) => `${name} may list at most ${max} values`;

/** The agent shown on a customer row. */
export const customerAgent = z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() });

/**
 * A customer as the API shows it. The API key comes masked (`****1234`); the secret and the
 * passphrase never leave the server: `apiSecret` and `passphrase` are always null and the
 * `has…` flags say whether one is stored.
 */
export const customer = z.object({
  id: z.number().int(),
  account,
  agent: customerAgent.nullable(),
  registrationId: z.string().nullable(),
  group: z.number().int().nullable(),
  applicationSource: z.number().int(),
  platformType: z.number().int(),
  exchangeAccountUUID: z.string().nullable(),
  apiKey: z.string().nullable(),
  apiSecret: z.null(),
  passphrase: z.null(),
  hasApiSecret: z.boolean(),
  hasPassphrase: z.boolean(),
  currentWalletAmount: z.number(),
  totalTransactions: z.number().int(),
  referralCode: z.string().nullable(),
  profitSharePct: z.number().nullable(),
  datetimeInserted: z.string(),
});
export type Customer = z.infer<typeof customer>;

export const customerFilter = z.object({
  statuses: z.array(accountStatusValue).max(5, list('statuses', 5)).default([]),
  countryIds: ids('countryIds').default([]),
  agentIds: ids('agentIds').default([]),
  groups: z.array(customerGroupValue).max(5, list('groups', 5)).default([]),
  /** Months of the customer's datetimeInserted, YYYY-MM (UTC). */
  datetimesInserted: z.array(month).max(120, 'datetimesInserted may list at most 120 months').default([]),
  platformTypes: z.array(platformTypeValue).max(5, list('platformTypes', 5)).default([]),
});
export type CustomerFilter = z.infer<typeof customerFilter>;

export const customerSortNames = ['currentWalletAmount', 'account.firstName', 'datetimeInserted'] as const;
export type CustomerSortName = (typeof customerSortNames)[number];
export const customerSort = sort.extend({
  name: z.enum(customerSortNames, { error: `sort name must be one of ${customerSortNames.join(', ')}` }),
});
export type CustomerSort = z.infer<typeof customerSort>;

/** The staff customer list shows Blocked and Active when no status is chosen (spec 9). */
export const CUSTOMER_LIST_DEFAULT_STATUSES = [AccountStatus.Blocked, AccountStatus.Active] as const;

export const customerFilterBody = pageRequestOf().extend({
  filter: customerFilter.prefault({}),
  sort: customerSort.nullish(),
});
export type CustomerFilterBody = z.infer<typeof customerFilterBody>;

export const textSearchBody = pageRequestOf().extend({
  text: text({ error: 'text is required' }).trim().max(200, 'text is too long'),
});
export const exclusiveSearchBody = pageRequestOf(EXCLUSIVE_SEARCH_PAGE_SIZE).extend({
  text: text().trim().max(200, 'text is too long').default(''),
});
export const exclusiveCandidate = z.object({
  id: z.number().int(),
  group: z.number().int().nullable(),
  account: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string(), status: z.number().int() }),
});

const profitSharePct = z.number({ error: 'profitSharePct must be a number' }).min(0, 'profitSharePct must be between 0 and 100').max(100, 'profitSharePct must be between 0 and 100');

export const customerCreateBody = z
  .object({
    accountId: id,
    platformType: enabledExchange,
    apiKey: credential('apiKey'),
    apiSecret: credential('apiSecret'),
    passphrase: optionalPassphrase,
    applicationSource: z.literal(ApplicationSource.Internal, { error: 'applicationSource must be 1 (Internal) for customers added by staff' }).default(ApplicationSource.Internal),
    exchangeAccountUUID: credential('exchangeAccountUUID'),
    agentId: idOf(validation.selectAgent),
    group: customerGroupValue.nullish(),
    isExclusive: z.boolean().default(false),
    profitSharePct: profitSharePct.nullish(),
  })
  .refine((body) => !(body.isExclusive && body.group != null && body.group !== CustomerGroup.Exclusive), {
    error: 'An exclusive customer is in group Exclusive (5): send isExclusive without another group',
    path: ['group'],
  });
export type CustomerCreateBody = z.infer<typeof customerCreateBody>;

export const credentialsBody = z.object({
  apiKey: credential('apiKey'),
  apiSecret: credential('apiSecret'),
  passphrase: optionalPassphrase,
  platformType: enabledExchange,
});
export type CredentialsBody = z.infer<typeof credentialsBody>;

export const groupChangeBody = z.object({ group: customerGroupValue });
export const bulkGroupBody = z
  .object({ originalGroup: customerGroupValue, finalGroup: customerGroupValue })
  .refine((b) => b.originalGroup !== b.finalGroup, { error: 'finalGroup must differ from originalGroup', path: ['finalGroup'] });

export const customerStatistics = z.object({
  pending: z.number().int(),
  rejected: z.number().int(),
  active: z.number().int(),
  blocked: z.number().int(),
});

export const customerRoutes = {
  create: defineRoute({
    method: 'POST', path: '/api/customer', access: 'staffCreateCustomer', tag: 'customers',
    summary:
      'Attach exchange credentials, agent and (optionally) group to a customer account made with POST /api/account. profitSharePct is for admins only (403 for employees; without it the default applies)',
    body: customerCreateBody, data: customer, errors: [ErrorStatus.NotFound, ErrorStatus.Conflict],
  }),
  own: defineRoute({
    method: 'GET', path: '/api/customer', access: 'customerOwn', tag: 'customers',
    summary: "The signed-in customer's own record", data: customer, errors: [ErrorStatus.NotFound],
  }),
  statistics: defineRoute({
    method: 'GET', path: '/api/customer/statistics', access: 'staffRead', tag: 'customers',
    summary: 'Customers per status: pending, rejected, active, blocked', data: customerStatistics,
  }),
  byId: defineRoute({
    method: 'GET', path: '/api/customer/:id', access: ['staffRead', 'customerOwn'], tag: 'customers',
    summary: 'One customer (customers: their own only)', params: z.object({ id: idParam }), data: customer, ownRecordsOnly: true,
    errors: [ErrorStatus.NotFound],
  }),
  credentials: defineRoute({
    method: 'PUT', path: '/api/customer/:id/short', access: 'adminManage', tag: 'customers',
    summary: "Replace a customer's exchange and API credentials", params: z.object({ id: idParam }), body: credentialsBody, data: success,
    errors: [ErrorStatus.NotFound],
  }),
  remove: defineRoute({
    method: 'DELETE', path: '/api/customer/:id', access: 'adminManage', tag: 'customers',
    summary: "Delete a customer's account (soft delete)", params: z.object({ id: idParam }), data: success, errors: [ErrorStatus.NotFound],
  }),
  group: defineRoute({
    method: 'PATCH', path: '/api/customer/:id/group', access: 'adminManage', tag: 'customers',
    summary: "Set a customer's group", params: z.object({ id: idParam }), body: groupChangeBody, data: success, errors: [ErrorStatus.NotFound],
  }),
  bulkGroup: defineRoute({
    method: 'POST', path: '/api/customer/group/bulk', access: 'adminManage', tag: 'customers',
    summary: 'Move every customer of one group to another', body: bulkGroupBody,
    data: success.extend({ updatedCount: z.number().int() }),
  }),
  filter: defineRoute({
    method: 'POST', path: '/api/customer/filter', access: 'staffRead', tag: 'customers',
    summary: 'Customer list and pending-approval list; statuses default to Blocked and Active',
    body: customerFilterBody, data: pagedOf(customer),
  }),
  searchFullName: defineRoute({
    method: 'POST', path: '/api/customer/search/fullname', access: 'staffRead', tag: 'customers',
    summary: 'Customers of any status whose first and last name contain every word of text (case-insensitive)',
    body: textSearchBody, data: pagedOf(customer),
  }),
  searchExclusive: defineRoute({
    method: 'POST', path: '/api/customer/search/exclusive', access: 'staffRead', tag: 'customers',
    summary: 'Customers in group Exclusive (the choices for a strategy exclusive customer), filtered by name',
    body: exclusiveSearchBody, data: pagedOf(exclusiveCandidate),
  }),
  export: defineRoute({
    method: 'POST', path: '/api/customer/export', access: 'adminManage', tag: 'customers',
    summary: 'Every customer as an Excel file (customers.xlsx), base64', data: z.object({ fileBase64String: z.string() }),
  }),
};
