import { AccountType, CustomerGroup, Exchange, Gender } from '../../contract/enums';
import { countryId, uniqueEmail } from '../helpers/fixtures';
import type { TestContext } from '../helpers/test-app';

export const SECRET = 'sEcReT-0123456789-abcdef-PLAIN';
export const PASSPHRASE = 'pass-Phrase-98765-PLAIN';
export const API_KEY = 'bg_key_ABCDEFGHIJ_9Z7Q';

export interface AddedCustomer {
  accountId: number;
  customerId: number;
  email: string;
  password: string;
}

export interface AddCustomerOptions {
  agentId: number;
  firstName?: string;
  lastName?: string;
  country?: string;
  group?: number | null;
  isExclusive?: boolean;
  platformType?: number;
  profitSharePct?: number;
  apiKey?: string;
}

/** The staff add-customer flow through the API: POST /api/account (type 1), then POST /api/customer. */
export async function addCustomer(ctx: TestContext, token: string, options: AddCustomerOptions): Promise<AddedCustomer> {
  const email = uniqueEmail('customer');
  const password = 'customer password 1';
  const account = await ctx.api('POST', '/api/account', {
    token,
    body: {
      firstName: options.firstName ?? 'Casey',
      lastName: options.lastName ?? 'Jones',
      email,
      age: 40,
      phone: '+6598765432',
      countryId: await countryId(ctx, options.country ?? 'SG'),
      gender: Gender.Female,
      password,
      accountType: AccountType.Customer,
    },
  });
  if (account.status !== 200) throw new Error(`account: ${account.status} ${account.body.error?.message}`);
  const accountId = account.body.data.id as number;
  const created = await ctx.api('POST', '/api/customer', {
    token,
    body: {
      accountId,
      platformType: options.platformType ?? Exchange.Bitget,
      apiKey: options.apiKey ?? API_KEY,
      apiSecret: SECRET,
      passphrase: PASSPHRASE,
      applicationSource: 1,
      exchangeAccountUUID: `uid-${accountId}`,
      agentId: options.agentId,
      group: options.group === undefined ? CustomerGroup.Gold : options.group,
      ...(options.isExclusive !== undefined ? { isExclusive: options.isExclusive } : {}),
      ...(options.profitSharePct !== undefined ? { profitSharePct: options.profitSharePct } : {}),
    },
  });
  if (created.status !== 200) throw new Error(`customer: ${created.status} ${created.body.error?.message}`);
  return { accountId, customerId: created.body.data.id as number, email, password };
}
