import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { accountRoutes } from '../../../contract/api/account';
import { customerRoutes, type Customer } from '../../../contract/api/customer';
import { AccountStatus, AccountType } from '../../../contract/enums';
import { accountOf, apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { CustomerDashboard } from './CustomerDashboard';

const own = (platformType: number, status: AccountStatus = AccountStatus.Pending): Customer => ({
  id: 8,
  account: accountOf(AccountType.Customer, { status }),
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

  it('disables the password pencil while the account is Pending (spec 6)', async () => {
    server.use(http.get(apiUrl(customerRoutes.own.path), () => HttpResponse.json(ok(customerRoutes.own, own(2)))));
    const view = renderWithAdmin(<CustomerDashboard />, { path: '/customer/dashboard', accountType: AccountType.Customer });
    const pencil = await screen.findByRole('button', { name: 'Change password' });
    await view.settled();
    expect(pencil).toBeDisabled();
  });

  it('lets an Active customer change their own password and keeps the session with the answer’s new token', async () => {
    const bodies: unknown[] = [];
    const sentWith: (string | null)[] = [];
    server.use(
      http.get(apiUrl(customerRoutes.own.path), () => HttpResponse.json(ok(customerRoutes.own, own(2, AccountStatus.Active)))),
      http.post(apiUrl(accountRoutes.resetOwnPassword.path), async ({ request }) => {
        bodies.push(await request.json());
        sentWith.push(request.headers.get('Authorization'));
        return HttpResponse.json(ok(accountRoutes.resetOwnPassword, { success: true, accessToken: { value: 'fresh-session-token', expiresAt: '2026-12-31T00:00:00.000Z' } }));
      }),
    );
    const view = renderWithAdmin(<CustomerDashboard />, { path: '/customer/dashboard', accountType: AccountType.Customer });
    const pencil = await screen.findByRole('button', { name: 'Change password' });
    await view.settled();
    expect(pencil).toBeEnabled();
    const user = userEvent.setup();
    await user.click(pencil);
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    await user.type(screen.getByLabelText('Current password'), 'old password');
    await user.type(screen.getByLabelText('New password'), 'N3w-Passw0rd!');
    await user.type(screen.getByLabelText('Confirm new password'), 'N3w-Passw0rd!');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password reset successful!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change password' })).toBeNull());
    expect(bodies).toEqual([{ currentPassword: 'old password', password: 'N3w-Passw0rd!' }]);
    expect(sentWith).toEqual([`Bearer token-${AccountType.Customer}`]);
    expect(Cookies.get('accessToken')).toBe('fresh-session-token');
  });
});
