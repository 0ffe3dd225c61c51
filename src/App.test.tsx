import { screen, waitFor } from '@testing-library/react';
import { render } from '@testing-library/react';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { I18nContextProvider } from 'ra-core';
import { describe, expect, it } from 'vitest';
import { accountRoutes } from '../contract/api/account';
import { agentRoutes } from '../contract/api/agent';
import { AccountType } from '../contract/enums';
import { ui } from '../contract/messages';
import { routes } from './App';
import { i18nProvider } from './i18n';
import { findBackOfficePath } from './pages/routes';
import { accountOf, apiUrl, failed, ok, server } from './test/msw';

function renderAt(url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  render(
    <I18nContextProvider value={i18nProvider}>
      <RouterProvider router={router} />
    </I18nContextProvider>,
  );
  return router;
}

describe('routes of spec 2', () => {
  it('redirects the root to /auth/login', async () => {
    const router = renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(await screen.findByText('Your Fund | Your Account Your Profit')).toBeInTheDocument();
  });

  it('shows the 404 page on an unknown path', async () => {
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Sorry, we were unable to find that page' })).toBeInTheDocument();
  });

  it('names each back-office path; static segments win over ids', () => {
    expect(findBackOfficePath('/customer/add')).toBe('customerAdd');
    expect(findBackOfficePath('/customer/15')).toBe('customerShow');
    expect(findBackOfficePath('/customer/dashboard')).toBe('customerDashboard');
    expect(findBackOfficePath('/agent/dashboard')).toBe('agentDashboard');
    expect(findBackOfficePath('/agent/9')).toBe('agentShow');
    expect(findBackOfficePath('/strategy/BTC001')).toBe('strategyEdit');
    expect(findBackOfficePath('/customers/approval/3')).toBe('approvalShow');
    expect(findBackOfficePath('/customers/x/y')).toBeUndefined();
  });

  it('guard: no cookie sends a back-office URL to /auth/login', async () => {
    const router = renderAt('/customers');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'), { timeout: 15_000 });
  });

  it('guard: a 403 from GET /api/account sends to /auth/login', async () => {
    Cookies.set('accessToken', 'blocked', { path: '/' });
    server.use(http.get(apiUrl(accountRoutes.me.path), () => HttpResponse.json(failed(ui.access.inactive), { status: 403 })));
    const router = renderAt('/admin/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'), { timeout: 15_000 });
  });

  it('guard: a role not allowed on the route sends to /auth/login; an allowed one stays', async () => {
    Cookies.set('accessToken', 'agent', { path: '/' });
    server.use(
      http.get(apiUrl(accountRoutes.me.path), () => HttpResponse.json(ok(accountRoutes.me, accountOf(AccountType.Agent)))),
      http.get(apiUrl(agentRoutes.dashboardOwn.path), () => HttpResponse.json(ok(agentRoutes.dashboardOwn, { totalCustomers: 2, prevMonthAmountEarned: 0, totalAmountEarned: 0 }))),
    );
    const router = renderAt('/admin/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'), { timeout: 15_000 });
    await router.navigate('/agent/dashboard');
    expect(await screen.findByTestId('topbar-role', {}, { timeout: 8000 })).toHaveTextContent('Agent');
    expect(router.state.location.pathname).toBe('/agent/dashboard');
  });
});
