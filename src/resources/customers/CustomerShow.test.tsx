import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import Cookies from 'js-cookie';
import { describe, expect, it } from 'vitest';
import { accountRoutes } from '../../../contract/api/account';
import { customerRoutes, type Customer } from '../../../contract/api/customer';
import { AccountStatus, AccountType } from '../../../contract/enums';
import { ui } from '../../../contract/messages';
import { accountOf, apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { CustomerShow } from './CustomerShow';

const customerWith = (status: AccountStatus): Customer => ({
  id: 12,
  account: accountOf(AccountType.Customer, { id: 30, firstName: 'Carl', lastName: 'Customer', status }),
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
  currentWalletAmount: 125.5,
  totalTransactions: 4,
  referralCode: null,
  profitSharePct: null,
  datetimeInserted: '2025-02-03T00:00:00.000Z',
});

async function openActions(status: AccountStatus, accountType: AccountType = AccountType.Admin) {
  let current = customerWith(status);
  server.use(http.get(apiUrl('/api/customer/12'), () => HttpResponse.json(ok(customerRoutes.byId, current))));
  const view = renderWithAdmin(<CustomerShow />, { path: '/customer/:id', url: '/customer/12', accountType });
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Actions' }));
  await view.settled();
  const item = (name: string) => screen.getByRole('menuitem', { name });
  return { view, user, item, setCurrent: (next: Customer) => (current = next) };
}

describe('Customer profile', () => {
  it('shows the balance and the read-only profile', async () => {
    server.use(http.get(apiUrl('/api/customer/12'), () => HttpResponse.json(ok(customerRoutes.byId, customerWith(AccountStatus.Active)))));
    renderWithAdmin(<CustomerShow />, { path: '/customer/:id', url: '/customer/12', accountType: AccountType.Employee });
    expect(await screen.findByTestId('stat-Current Balance')).toHaveTextContent('125.50 USDT');
    expect(screen.getByLabelText('Customer ID')).toHaveValue('12');
    expect(screen.getByLabelText('Since')).toHaveValue('03/02/2025');
  });

  it('disables the password change while the customer is Pending (spec 6)', async () => {
    const pending = await openActions(AccountStatus.Pending);
    expect(pending.item('Change Password')).toHaveAttribute('aria-disabled', 'true');
    expect(pending.item('Block')).not.toHaveAttribute('aria-disabled');
    pending.view.unmount();
    const active = await openActions(AccountStatus.Active);
    expect(active.item('Change Password')).not.toHaveAttribute('aria-disabled');
    expect(active.item('Unblock')).toHaveAttribute('aria-disabled', 'true');
  });

  it('disables every action for an employee', async () => {
    const { item } = await openActions(AccountStatus.Active, AccountType.Employee);
    for (const name of ['Block', 'Unblock', 'Delete Account', 'Change Password']) expect(item(name)).toHaveAttribute('aria-disabled', 'true');
  });

  it('blocks after confirming, with the spec text, and shows the new status', async () => {
    let body: unknown;
    server.use(
      http.patch(apiUrl('/api/security/status/30'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(ok(accountRoutes.changeStatus, { id: 30, status: AccountStatus.Blocked }));
      }),
    );
    const { user, item, setCurrent } = await openActions(AccountStatus.Active);
    setCurrent(customerWith(AccountStatus.Blocked));
    await user.click(item('Block'));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm block user?' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent(ui.blocking.customerBlocked);
    expect(body).toEqual({ status: AccountStatus.Blocked });
    await waitFor(() => expect(screen.getAllByText('Blocked').length).toBeGreaterThan(0));
  });

  it("says 'Failed to delete the account' when a delete fails without a message", async () => {
    server.use(http.delete(apiUrl('/api/customer/12'), () => HttpResponse.json({ successful: false, data: null, error: null }, { status: 500 })));
    const { user, item } = await openActions(AccountStatus.Active);
    await user.click(item('Delete Account'));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm delete this account' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('dialog', { name: 'Error' })).toHaveTextContent(ui.accountsFailure.deleteAccount);
  });

  it("says 'You need to be logged in' when the session cookie is gone before a delete (spec 6), and sends nothing", async () => {
    let deletes = 0;
    server.use(
      http.delete(apiUrl('/api/customer/12'), () => {
        deletes += 1;
        return HttpResponse.json(ok(customerRoutes.remove, { success: true }));
      }),
    );
    const { user, item } = await openActions(AccountStatus.Active);
    Cookies.remove('accessToken', { path: '/' });
    await user.click(item('Delete Account'));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm delete this account' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('dialog', { name: 'Error' })).toHaveTextContent(ui.access.needLogin);
    expect(deletes).toBe(0);
    expect(screen.queryByText(ui.accountsSuccess.accountDeleted)).toBeNull();
  });
});
