import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { agentRoutes } from '../../../contract/api/agent';
import { countryRoutes } from '../../../contract/api/country';
import { customerRoutes, type Customer } from '../../../contract/api/customer';
import { AccountType } from '../../../contract/enums';
import { accountOf, apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { CustomerList } from './CustomerList';

const customer: Customer = {
  id: 12,
  account: accountOf(AccountType.Customer, { id: 30, firstName: 'Carl', lastName: 'Customer' }),
  agent: { id: 3, firstName: 'Ann', lastName: 'Agent' },
  registrationId: 'REG1',
  group: 1,
  applicationSource: 1,
  platformType: 2,
  exchangeAccountUUID: 'uid',
  apiKey: '****1234',
  apiSecret: null,
  passphrase: null,
  hasApiSecret: true,
  hasPassphrase: false,
  currentWalletAmount: 0,
  totalTransactions: 4,
  referralCode: null,
  profitSharePct: null,
  datetimeInserted: '2025-02-03T00:00:00.000Z',
};
const page = (rows: Customer[]) => ({ data: rows, paging: { totalCount: rows.length, pageIndex: 0, pageSize: 50 } });

function answer(filters: unknown[], searches: unknown[] = [], countrySearches: unknown[] = []) {
  server.use(
    http.post(apiUrl(customerRoutes.filter.path), async ({ request }) => {
      filters.push(await request.json());
      return HttpResponse.json(ok(customerRoutes.filter, page([customer])));
    }),
    http.post(apiUrl(customerRoutes.searchFullName.path), async ({ request }) => {
      searches.push(await request.json());
      return HttpResponse.json(ok(customerRoutes.searchFullName, page([])));
    }),
    http.get(apiUrl(customerRoutes.statistics.path), () => HttpResponse.json(ok(customerRoutes.statistics, { pending: 1, rejected: 0, active: 7, blocked: 2 }))),
    http.get(apiUrl(agentRoutes.all.path), () => HttpResponse.json(ok(agentRoutes.all, { data: [], paging: { totalCount: 0, pageIndex: 0, pageSize: 100 } }))),
    http.post(apiUrl(countryRoutes.search.path), async ({ request }) => {
      countrySearches.push(await request.json());
      return HttpResponse.json(ok(countryRoutes.search, { data: [{ id: 5, name: 'Singapore', imageUrl: '/flags/sg.svg', countryCode: 'SG', dialCode: '+65' }], paging: { totalCount: 1, pageIndex: 0, pageSize: 32 } }));
    }),
  );
}

describe('Customer List', () => {
  it('restores the spec query parameters from the URL and sends them as the filter', async () => {
    const filters: unknown[] = [];
    answer(filters);
    renderWithAdmin(<CustomerList />, {
      path: '/customers',
      url: '/customers?pageIndex=3&country=5&agent=3&status=2&group=4&month=2025-02&platformType=2',
      accountType: AccountType.Admin,
    });
    expect(await screen.findByText('Active(7)')).toBeInTheDocument();
    expect(screen.getByText('Blocked(2)')).toBeInTheDocument();
    await waitFor(() =>
      expect(filters.at(-1)).toEqual({
        pageIndex: 2,
        pageSize: 50,
        filter: { statuses: [2], countryIds: [5], agentIds: [3], groups: [4], datetimesInserted: ['2025-02'], platformTypes: [2] },
        sort: null,
      }),
    );
    expect(await screen.findByRole('link', { name: 'Carl Customer' })).toHaveAttribute('href', '/customer/12');
    expect(screen.getByText('03/02/2025')).toBeInTheDocument();
  });

  it('goes back to page 1 on a filter change, sorts in three states and resets', async () => {
    const filters: unknown[] = [];
    answer(filters);
    const view = renderWithAdmin(<CustomerList />, { path: '/customers', url: '/customers?pageIndex=2', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox', { name: 'Group' }));
    await user.click(await screen.findByRole('option', { name: 'Vip' }));
    await waitFor(() => expect(view.location()).toBe('/customers?group=3'));
    await user.click(screen.getByText('Name'));
    await waitFor(() => expect(filters.at(-1)).toMatchObject({ pageIndex: 0, sort: { name: 'account.firstName', type: 1 } }));
    await user.click(screen.getByText('Name'));
    await waitFor(() => expect(filters.at(-1)).toMatchObject({ sort: { name: 'account.firstName', type: 2 } }));
    await user.click(screen.getByText('Name'));
    await waitFor(() => expect(filters.at(-1)).toMatchObject({ sort: null }));
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(view.location()).toBe('/customers'));
  });

  it('searches by name one second after typing', async () => {
    const searches: unknown[] = [];
    answer([], searches);
    renderWithAdmin(<CustomerList />, { path: '/customers', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Search by name'), 'carl');
    expect(searches).toEqual([]);
    await waitFor(() => expect(searches).toEqual([{ pageIndex: 0, pageSize: 50, text: 'carl' }]), { timeout: 3000 });
    expect(await screen.findByText('No records available')).toBeInTheDocument();
  });

  it('disables export and the group dialog for an employee, not adding a customer', async () => {
    answer([]);
    const view = renderWithAdmin(<CustomerList />, { path: '/customers', accountType: AccountType.Employee });
    await screen.findByText('Active(7)');
    await view.settled();
    expect(screen.getByRole('button', { name: 'Export' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Convert' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Add Customer' })).not.toHaveAttribute('aria-disabled');
  });

  it('exports for an admin and reports the download', async () => {
    answer([]);
    server.use(http.post(apiUrl(customerRoutes.export.path), () => HttpResponse.json(ok(customerRoutes.export, { fileBase64String: btoa('xlsx') }))));
    URL.createObjectURL = () => 'blob:customers';
    URL.revokeObjectURL = () => undefined;
    renderWithAdmin(<CustomerList />, { path: '/customers', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Export' }));
    expect(within(await screen.findByRole('dialog')).getByText('File is download successfully')).toBeInTheDocument();
  });

  it('loads the country filter on demand: the chosen country by id, 32 when opened, then a search (spec 9, issue 28 item 18)', async () => {
    const countrySearches: unknown[] = [];
    answer([], [], countrySearches);
    renderWithAdmin(<CustomerList />, { path: '/customers', url: '/customers?country=5', accountType: AccountType.Admin });
    const country = await screen.findByRole('combobox', { name: 'Country' });
    await waitFor(() => expect(country).toHaveValue('Singapore'));
    expect(countrySearches).toEqual([{ pageIndex: 0, pageSize: 1, filter: [{ name: 'id', value: '5' }] }]);
    const user = userEvent.setup();
    await user.click(country);
    await waitFor(() => expect(countrySearches.at(-1)).toEqual({ pageIndex: 0, pageSize: 32, filter: [] }));
    await user.clear(country);
    await user.type(country, 'sing');
    await waitFor(() => expect(countrySearches.at(-1)).toEqual({ pageIndex: 0, pageSize: 32, filter: [{ name: 'name', value: 'sing' }] }));
    // Never the next pages of every country (main read all 8 at once).
    expect(countrySearches.filter((body) => (body as { pageIndex: number }).pageIndex !== 0)).toEqual([]);
  });
});
