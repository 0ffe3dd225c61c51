import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { accountRoutes } from '../../../contract/api/account';
import { agentRoutes, type Agent } from '../../../contract/api/agent';
import { AccountType } from '../../../contract/enums';
import { accountOf, apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { AgentDashboard } from './AgentDashboard';

const self: Agent = { id: 12, account: accountOf(AccountType.Agent, { id: 70, firstName: 'Walter', lastName: 'White', email: 'walter@example.com', age: 52 }), totalCustomers: 4 };

function answerAgent(passwords: unknown[] = []) {
  server.use(
    http.get(apiUrl(agentRoutes.dashboardOwn.path), () => HttpResponse.json(ok(agentRoutes.dashboardOwn, { totalCustomers: 4, prevMonthAmountEarned: 12.5, totalAmountEarned: 80 }))),
    http.get(apiUrl(agentRoutes.own.path), () => HttpResponse.json(ok(agentRoutes.own, self))),
    http.post(apiUrl(accountRoutes.resetOwnPassword.path), async ({ request }) => {
      passwords.push(await request.json());
      return HttpResponse.json(ok(accountRoutes.resetOwnPassword, { success: true, accessToken: { value: 'agent-new-token', expiresAt: '2026-12-31T00:00:00.000Z' } }));
    }),
  );
}

describe('agent dashboard', () => {
  it("shows the agent's statistics and own read-only profile (GET /api/agent)", async () => {
    answerAgent();
    renderWithAdmin(<AgentDashboard />, { path: '/agent/dashboard', accountType: AccountType.Agent });
    expect(await screen.findByDisplayValue('walter@example.com')).toBeInTheDocument();
    expect(screen.getByLabelText('Agent ID')).toHaveValue('12');
    expect(screen.getByLabelText('First Name')).toHaveValue('Walter');
    expect(screen.getByLabelText('Age')).toHaveValue('52');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByTestId('stat-Total Customers')).toHaveTextContent('4');
    expect(screen.getByTestId('stat-Amount Earned Last Month')).toHaveTextContent('12.50 USDT');
    expect(screen.getByTestId('stat-Total Amount Earned')).toHaveTextContent('80.00 USDT');
  });

  it('lets the agent change their own password; the answer’s token replaces the cookie', async () => {
    const passwords: unknown[] = [];
    answerAgent(passwords);
    const view = renderWithAdmin(<AgentDashboard />, { path: '/agent/dashboard', accountType: AccountType.Agent });
    const pencil = await screen.findByRole('button', { name: 'Change password' });
    await view.settled();
    const user = userEvent.setup();
    await user.click(pencil);
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    await user.type(within(dialog).getByLabelText('Current password'), 'Agent-Pass-1');
    await user.type(within(dialog).getByLabelText('New password'), 'Agent-Pass-2');
    await user.type(within(dialog).getByLabelText('Confirm new password'), 'Agent-Pass-3');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(within(dialog).getByText('Passwords don’t match!')).toBeInTheDocument();
    expect(passwords).toEqual([]);
    await user.clear(within(dialog).getByLabelText('Confirm new password'));
    await user.type(within(dialog).getByLabelText('Confirm new password'), 'Agent-Pass-2');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password reset successful!')).toBeInTheDocument();
    expect(passwords).toEqual([{ currentPassword: 'Agent-Pass-1', password: 'Agent-Pass-2' }]);
    expect(Cookies.get('accessToken')).toBe('agent-new-token');
  });
});
