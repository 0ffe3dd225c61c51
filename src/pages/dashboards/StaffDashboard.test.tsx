import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { earningsRoutes } from '../../../contract/api/earnings';
import { employeeRoutes } from '../../../contract/api/employee';
import { AccountType } from '../../../contract/enums';
import { apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { StaffDashboard } from './StaffDashboard';

describe('Performance Overview', () => {
  it('shows the totals and asks the income report of the years the server lists', async () => {
    const years: string[] = [];
    server.use(
      http.get(apiUrl(employeeRoutes.dashboard.path), () => HttpResponse.json(ok(employeeRoutes.dashboard, { totalAgents: 4, totalCustomers: 9, totalAmountEarned: 77, totalWalletAmount: 0 }))),
      http.get(apiUrl(earningsRoutes.income.path), ({ request }) => {
        const year = new URL(request.url).searchParams.get('year') ?? '';
        years.push(year);
        return HttpResponse.json(ok(earningsRoutes.income, { year: Number(year), months: [{ month: 1, income: 12.5 }], years: [2024, 2025, Number(year)].filter((y, i, all) => all.indexOf(y) === i) }));
      }),
    );
    renderWithAdmin(<StaffDashboard />, { path: '/admin/dashboard', accountType: AccountType.Admin });
    await waitFor(() => expect(screen.getByTestId('stat-Total Customers')).toHaveTextContent('9'));
    expect(screen.getByTestId('stat-Total Agents')).toHaveTextContent('4');
    const wallet = screen.getByTestId('stat-Total Wallet Amount (USDT)');
    expect(wallet).toHaveTextContent('0.00 USDT');
    expect(wallet.querySelector('[data-negative="true"]')).not.toBeNull();
    await waitFor(() => expect(years).toEqual([String(new Date().getFullYear())]));
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Year' }));
    await user.click(await screen.findByRole('option', { name: '2024' }));
    await waitFor(() => expect(years.at(-1)).toBe('2024'));
  });
});
