import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
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
});
