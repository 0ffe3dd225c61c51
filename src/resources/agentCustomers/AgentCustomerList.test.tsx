import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { agentRoutes } from '../../../contract/api/agent';
import { countryRoutes } from '../../../contract/api/country';
import type { Customer } from '../../../contract/api/customer';
import { AccountStatus, AccountType } from '../../../contract/enums';
import { accountOf, apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { AgentCustomerList } from './AgentCustomerList';

const customerWith = (id: number, status: AccountStatus, firstName: string): Customer => ({
  id,
  account: accountOf(AccountType.Customer, { id: id + 100, firstName, lastName: 'Client', status }),
  agent: null,
  registrationId: null,
  group: 1,
  applicationSource: 1,
  platformType: 2,
  exchangeAccountUUID: null,
  apiKey: null,
  apiSecret: null,
  passphrase: null,
  hasApiSecret: false,
  hasPassphrase: false,
  currentWalletAmount: 10,
  totalTransactions: 0,
  referralCode: null,
  profitSharePct: null,
  datetimeInserted: '2025-02-03T00:00:00.000Z',
});

describe("The agent's Customer Listing", () => {
  it('colours Active green, Blocked red and every other status purple (spec 4)', async () => {
    const rows = [customerWith(1, AccountStatus.Active, 'Ada'), customerWith(2, AccountStatus.Blocked, 'Bob'), customerWith(3, AccountStatus.Pending, 'Cy'), customerWith(4, AccountStatus.Rejected, 'Di')];
    server.use(
      http.post(apiUrl(agentRoutes.ownCustomersFilter.path), () => HttpResponse.json(ok(agentRoutes.ownCustomersFilter, { data: rows, paging: { totalCount: 4, pageIndex: 0, pageSize: 50 } }))),
      http.get(apiUrl(agentRoutes.ownCustomersStatistics.path), () => HttpResponse.json(ok(agentRoutes.ownCustomersStatistics, { active: 1, blocked: 1 }))),
      http.post(apiUrl(countryRoutes.search.path), () => HttpResponse.json(ok(countryRoutes.search, { data: [], paging: { totalCount: 0, pageIndex: 0, pageSize: 32 } }))),
    );
    renderWithAdmin(<AgentCustomerList />, { path: '/agent/customers', accountType: AccountType.Agent });
    const colourOf = async (name: string) => {
      const row = (await screen.findByText(`${name} Client`)).closest('tr')!;
      return within(row).getByText(/Active|Blocked|Pending|Rejected/).closest('[data-color]')!.getAttribute('data-color');
    };
    expect(await colourOf('Ada')).toBe('success');
    expect(await colourOf('Bob')).toBe('error');
    expect(await colourOf('Cy')).toBe('primary');
    expect(await colourOf('Di')).toBe('primary');
  });
});
