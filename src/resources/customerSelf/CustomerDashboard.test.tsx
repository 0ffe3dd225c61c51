import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { customerRoutes, type Customer } from '../../../contract/api/customer';
import { AccountStatus, AccountType } from '../../../contract/enums';
import { accountOf, apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { CustomerDashboard } from './CustomerDashboard';

const own = (platformType: number): Customer => ({
  id: 8,
  account: accountOf(AccountType.Customer, { status: AccountStatus.Pending }),
  agent: null,
  registrationId: 'REG8',
  group: null,
  applicationSource: 2,
  platformType,
  exchangeAccountUUID: null,
  apiKey: null,
  apiSecret: null,
  passphrase: null,
  hasApiSecret: false,
  hasPassphrase: false,
  currentWalletAmount: -3,
  totalTransactions: 2,
  referralCode: null,
  profitSharePct: null,
  datetimeInserted: '2025-02-03T00:00:00.000Z',
});

describe('customer dashboard', () => {
  it("opens 'Thank You for Registering!' after sign-up and cleans the query string", async () => {
    server.use(http.get(apiUrl(customerRoutes.own.path), () => HttpResponse.json(ok(customerRoutes.own, own(2)))));
    const view = renderWithAdmin(<CustomerDashboard />, { path: '/customer/dashboard', url: '/customer/dashboard?success=True&platformType=2', accountType: AccountType.Customer });
    expect(await screen.findByText('Thank You for Registering!')).toBeInTheDocument();
    expect(screen.getByText("You'll receive an email once your account is approved within 7 days.")).toBeInTheDocument();
    await waitFor(() => expect(view.location()).toBe('/customer/dashboard'));
    expect(screen.getByTestId('stat-Current Balance').querySelector('[data-negative="true"]')).not.toBeNull();
    expect(screen.getByDisplayValue('03/02/2025')).toBeInTheDocument();
  });

  it('sends a customer without an exchange to /auth/connect', async () => {
    server.use(http.get(apiUrl(customerRoutes.own.path), () => HttpResponse.json(ok(customerRoutes.own, own(0)))));
    const view = renderWithAdmin(<CustomerDashboard />, { path: '/customer/dashboard', accountType: AccountType.Customer });
    await waitFor(() => expect(view.location()).toBe('/auth/connect'));
  });
});
