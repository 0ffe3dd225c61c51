import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { accountRoutes } from '../../../contract/api/account';
import { employeeRoutes } from '../../../contract/api/employee';
import { AccountStatus, AccountType } from '../../../contract/enums';
import { ui } from '../../../contract/messages';
import { accountOf, apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { EmployeeShow } from './EmployeeShow';

describe('Employee profile', () => {
  it("says 'Failed to delete employee data' when a delete fails without a message (spec 8)", async () => {
    const employee = { id: 9, account: accountOf(AccountType.Employee, { id: 90, firstName: 'Emma', lastName: 'Staff', status: AccountStatus.Active }) };
    server.use(
      http.get(apiUrl(employeeRoutes.byId.path.replace(':id', '9')), () => HttpResponse.json(ok(employeeRoutes.byId, employee))),
      http.delete(apiUrl(employeeRoutes.delete.path.replace(':id', '9')), () => HttpResponse.json({ successful: false, data: null, error: null }, { status: 500 })),
    );
    const view = renderWithAdmin(<EmployeeShow />, { path: '/employee/:id', url: '/employee/9', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions' }));
    await view.settled();
    await user.click(screen.getByRole('menuitem', { name: 'Delete Account' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirm delete this account' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('dialog', { name: 'Error' })).toHaveTextContent(ui.accountsFailure.deleteEmployee);
  });

  it('offers an admin no Block, Unblock or Delete Account on their own profile (issue 28 item 5)', async () => {
    const self = { id: 1, account: accountOf(AccountType.Admin, { status: AccountStatus.Active }) };
    server.use(http.get(apiUrl(employeeRoutes.byId.path.replace(':id', '1')), () => HttpResponse.json(ok(employeeRoutes.byId, self))));
    const view = renderWithAdmin(<EmployeeShow />, { path: '/employee/:id', url: '/employee/1', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions' }));
    await view.settled();
    for (const item of ['Block', 'Unblock', 'Delete Account']) expect(screen.getByRole('menuitem', { name: item }), item).toHaveAttribute('aria-disabled', 'true');
  });

  it("changes an admin's own password from their profile with the current one (POST /api/security/password/reset), not as someone else's", async () => {
    const self = { id: 1, account: accountOf(AccountType.Admin, { status: AccountStatus.Active }) };
    const own: unknown[] = [];
    const others: unknown[] = [];
    server.use(
      http.get(apiUrl(employeeRoutes.byId.path.replace(':id', '1')), () => HttpResponse.json(ok(employeeRoutes.byId, self))),
      http.post(apiUrl(accountRoutes.resetOwnPassword.path), async ({ request }) => {
        own.push(await request.json());
        return HttpResponse.json(ok(accountRoutes.resetOwnPassword, { success: true, accessToken: { value: 'admin-new-token', expiresAt: '2026-12-31T00:00:00.000Z' } }));
      }),
      http.post(apiUrl(accountRoutes.resetPasswordOf.path.replace(':id', String(self.account.id))), async ({ request }) => {
        others.push(await request.json());
        return HttpResponse.json(ok(accountRoutes.resetPasswordOf, { success: true }));
      }),
    );
    const view = renderWithAdmin(<EmployeeShow />, { path: '/employee/:id', url: '/employee/1', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions' }));
    await view.settled();
    await user.click(screen.getByRole('menuitem', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    await user.type(within(dialog).getByLabelText('Current password'), 'Admin-Pass-1');
    await user.type(within(dialog).getByLabelText('New password'), 'Admin-Pass-2');
    await user.type(within(dialog).getByLabelText('Confirm new password'), 'Admin-Pass-2');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(ui.accountsSuccess.passwordReset)).toBeInTheDocument();
    expect(own).toEqual([{ currentPassword: 'Admin-Pass-1', password: 'Admin-Pass-2' }]);
    expect(others).toEqual([]);
  });
});
