import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { customerRoutes, type Customer } from '../../../contract/api/customer';
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
  });
});
