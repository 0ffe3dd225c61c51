import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { accountRoutes } from '../../../contract/api/account';
import { customerRoutes, type Customer } from '../../../contract/api/customer';
import { ui, validation } from '../../../contract/messages';
import { AccountStatus, AccountType } from '../../../contract/enums';
import { accountOf, apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { ApprovalShow } from './ApprovalShow';

const pending: Customer = {
  id: 8,
  account: accountOf(AccountType.Customer, { id: 21, firstName: 'Peter', lastName: 'Pending', status: AccountStatus.Pending }),
  agent: null,
  registrationId: 'REG8',
  group: null,
  applicationSource: 2,
  platformType: 2,
  exchangeAccountUUID: null,
  apiKey: '****9999',
  apiSecret: null,
  passphrase: null,
  hasApiSecret: true,
  hasPassphrase: false,
  currentWalletAmount: 0,
  totalTransactions: 0,
  referralCode: null,
  profitSharePct: null,
  datetimeInserted: '2025-02-03T00:00:00.000Z',
};

describe('Pending Approval Customer', () => {
  it('disables approve, reject, the group and the credentials for an employee', async () => {
    server.use(http.get(apiUrl('/api/customer/8'), () => HttpResponse.json(ok(customerRoutes.byId, pending))));
    const view = renderWithAdmin(<ApprovalShow />, { path: '/customers/approval/:id', url: '/customers/approval/8', accountType: AccountType.Employee });
    await screen.findByRole('button', { name: 'Approve' });
    await view.settled();
    expect(screen.getByRole('button', { name: 'Approve' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reject' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Is an exclusive customer?' })).toBeDisabled();
    expect(screen.getByLabelText('API Key')).toBeDisabled();
  });

  it('enables them for an admin', async () => {
    server.use(http.get(apiUrl('/api/customer/8'), () => HttpResponse.json(ok(customerRoutes.byId, pending))));
    renderWithAdmin(<ApprovalShow />, { path: '/customers/approval/:id', url: '/customers/approval/8', accountType: AccountType.Admin });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Reject' })).toBeEnabled();
    expect(screen.getByLabelText('API Key')).toHaveAttribute('placeholder', '****9999');
    expect(screen.getByLabelText('API Secret')).toHaveAttribute('placeholder', '••••••••');
    expect(screen.getByLabelText('Passphrase (optional)')).not.toHaveAttribute('placeholder');
  });

  it('shows no stored-secret dots for a customer without credentials', async () => {
    const bare: Customer = { ...pending, platformType: 0, apiKey: null, hasApiSecret: false, hasPassphrase: false };
    server.use(http.get(apiUrl('/api/customer/8'), () => HttpResponse.json(ok(customerRoutes.byId, bare))));
    renderWithAdmin(<ApprovalShow />, { path: '/customers/approval/:id', url: '/customers/approval/8', accountType: AccountType.Admin });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled());
    for (const label of ['API Key', 'API Secret', 'Passphrase (optional)']) expect(screen.getByLabelText(label), label).not.toHaveAttribute('placeholder');
  });

  it('approves with the chosen group, says so in a popup, then returns to the list (issue 10)', async () => {
    const calls: { url: string; body: unknown }[] = [];
    server.use(
      http.get(apiUrl('/api/customer/8'), () => HttpResponse.json(ok(customerRoutes.byId, pending))),
      http.patch(apiUrl('/api/customer/8/group'), async ({ request }) => {
        calls.push({ url: '/api/customer/8/group', body: await request.json() });
        return HttpResponse.json(ok(customerRoutes.group, { success: true }));
      }),
      http.patch(apiUrl('/api/security/status/21'), async ({ request }) => {
        calls.push({ url: '/api/security/status/21', body: await request.json() });
        return HttpResponse.json(ok(accountRoutes.changeStatus, { id: 21, status: AccountStatus.Active }));
      }),
    );
    const view = renderWithAdmin(<ApprovalShow />, { path: '/customers/approval/:id', url: '/customers/approval/8', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('dialog', { name: 'Error' })).toHaveTextContent(ui.form.fillRequired);
    expect(screen.getByText(validation.selectGroupOrExclusive)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Closed' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('combobox', { name: 'Group' }));
    await user.click(await screen.findByRole('option', { name: 'Vip' }));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    // Issue 28 item 14: approve and reject both ask first.
    const question = await screen.findByRole('dialog', { name: 'Confirm approve this customer?' });
    expect(calls).toEqual([{ url: '/api/customer/8/group', body: { group: 3 } }]);
    await user.click(within(question).getByRole('button', { name: 'Confirm' }));
    const popup = await screen.findByRole('dialog', { name: 'Success' });
    expect(popup).toHaveTextContent('Customer approved successfully!');
    expect(view.location()).toBe('/customers/approval/8');
    expect(calls).toEqual([
      { url: '/api/customer/8/group', body: { group: 3 } },
      { url: '/api/security/status/21', body: { status: AccountStatus.Active } },
    ]);
    await user.click(screen.getByRole('button', { name: 'Closed' }));
    await waitFor(() => expect(view.location()).toBe('/customers/approval'));
  });

  it('rejects once confirmed (a cancelled question changes nothing), says so in a popup, then returns to the list', async () => {
    const statuses: unknown[] = [];
    server.use(
      http.get(apiUrl('/api/customer/8'), () => HttpResponse.json(ok(customerRoutes.byId, pending))),
      http.patch(apiUrl('/api/security/status/21'), async ({ request }) => {
        statuses.push(await request.json());
        return HttpResponse.json(ok(accountRoutes.changeStatus, { id: 21, status: AccountStatus.Rejected }));
      }),
    );
    const view = renderWithAdmin(<ApprovalShow />, { path: '/customers/approval/:id', url: '/customers/approval/8', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reject' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm reject this customer?' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(statuses).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm reject this customer?' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent('Customer rejected successfully!');
    expect(statuses).toEqual([{ status: AccountStatus.Rejected }]);
    await user.click(screen.getByRole('button', { name: 'Closed' }));
    await waitFor(() => expect(view.location()).toBe('/customers/approval'));
  });
});
