import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { HttpError } from 'ra-core';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentRoutes, type Agent } from '../../../contract/api/agent';
import { customerRoutes } from '../../../contract/api/customer';
import { AccountType } from '../../../contract/enums';
import { AgentDashboard } from '../../pages/dashboards/AgentDashboard';
import { StaffDashboard } from '../../pages/dashboards/StaffDashboard';
import { AgentCustomerList } from '../../resources/agentCustomers/AgentCustomerList';
import { AgentList } from '../../resources/agents/AgentList';
import { AgentShow } from '../../resources/agents/AgentShow';
import { ApprovalList } from '../../resources/approvals/ApprovalList';
import { CustomerList } from '../../resources/customers/CustomerList';
import { EntryAuditList } from '../../resources/entryAudits/EntryAuditList';
import { ExitAuditList } from '../../resources/exitAudits/ExitAuditList';
import { OrderList } from '../../resources/orders/OrderList';
import { RegistrationIdList } from '../../resources/registrationIds/RegistrationIdList';
import { accountOf, apiUrl, failed, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { retryStatistics, STATISTICS_RETRIES, STATISTICS_RETRY_DELAY_MS } from './useStatistics';

const agent: Agent = { id: 4, account: accountOf(AccountType.Agent, { id: 40, firstName: 'Ann', lastName: 'Agent' }), totalCustomers: 3 };

/** Every screen that shows counts or statistics cards, with the URL and role it is opened with. */
const screens: { name: string; element: ReactElement; path: string; url?: string; accountType: AccountType; counts: string[] }[] = [
  { name: 'Customer List', element: <CustomerList />, path: '/customers', accountType: AccountType.Admin, counts: ['Active', 'Blocked'] },
  { name: 'Pending Approval Customer', element: <ApprovalList />, path: '/customers/approval', accountType: AccountType.Employee, counts: ['Pending', 'Rejected'] },
  { name: 'Agent List', element: <AgentList />, path: '/agents', accountType: AccountType.Admin, counts: ['Active', 'Blocked'] },
  { name: 'Order & Alert', element: <OrderList />, path: '/admin/orders', accountType: AccountType.Admin, counts: ['TotalDeal', 'Win', 'Loss'] },
  { name: 'Entry Order Audit', element: <EntryAuditList />, path: '/activity/entry', accountType: AccountType.Admin, counts: ['Errors'] },
  { name: 'Exit Order Audit', element: <ExitAuditList />, path: '/activity/exit', accountType: AccountType.Employee, counts: ['Errors'] },
  { name: 'Registration ID Record', element: <RegistrationIdList />, path: '/agent/registrationids', accountType: AccountType.Agent, counts: ['Registered', 'Pending', 'Expired'] },
  { name: 'Customer Listing', element: <AgentCustomerList />, path: '/agent/customers', accountType: AccountType.Agent, counts: ['Active', 'Blocked'] },
  { name: 'staff Performance Overview', element: <StaffDashboard />, path: '/admin/dashboard', accountType: AccountType.Admin, counts: [] },
  { name: 'agent Performance Overview', element: <AgentDashboard />, path: '/agent/dashboard', accountType: AccountType.Agent, counts: [] },
  { name: 'Agent Profile', element: <AgentShow />, path: '/agent/:id', url: '/agent/4', accountType: AccountType.Admin, counts: [] },
];

afterEach(() => vi.restoreAllMocks());

describe("'Failed to get statistics' (spec 8) where the counts and statistics cards are", () => {
  it.each(screens)('$name', async ({ element, path, url, accountType, counts }) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      // Every call is refused (a 4xx is not retried) but the agent record the profile shows (the first match answers).
      http.get(apiUrl(agentRoutes.byId.path.replace(':agentId', '4')), () => HttpResponse.json(ok(agentRoutes.byId, agent))),
      http.all(apiUrl('/api/*'), () => HttpResponse.json(failed('Permission denied'), { status: 403 })),
    );
    renderWithAdmin(element, { path, url: url ?? path, accountType });
    expect(await screen.findAllByText('Failed to get statistics')).not.toEqual([]);
    for (const label of counts) expect(screen.queryByText(`${label}(0)`)).toBeNull();
    expect(screen.queryByText('0.00 USDT')).toBeNull();
    expect(logged.mock.calls.some(([message]) => message === 'Failed to get statistics')).toBe(true);
  });

  it('shows a placeholder while the figures load, never 0, and fails after one retry half a second later (issue 28 item 11)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let calls = 0;
    let answerNow: () => void = () => undefined;
    const firstAnswer = new Promise<void>((resolve) => {
      answerNow = resolve;
    });
    server.use(
      http.get(apiUrl(customerRoutes.statistics.path), async () => {
        calls += 1;
        if (calls === 1) await firstAnswer;
        return HttpResponse.json(failed('Internal server error. The problem has been logged.'), { status: 500 });
      }),
    );
    renderWithAdmin(<CustomerList />, { path: '/customers', accountType: AccountType.Admin });
    const active = await screen.findByTestId('count-Active');
    expect(active).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('Active(0)')).toBeNull();
    answerNow();
    expect(await screen.findByText('Failed to get statistics', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(calls).toBe(1 + STATISTICS_RETRIES);
    expect(logged).toHaveBeenCalled();
  });
});

describe('the statistics retry policy', () => {
  it('tries a failed call once more (transport failures and 5xx), never a refusal', () => {
    expect(retryStatistics(0, new HttpError('down', 503))).toBe(true);
    expect(retryStatistics(1, new HttpError('down', 503))).toBe(false);
    expect(retryStatistics(0, new HttpError('Permission denied', 403))).toBe(false);
    expect(STATISTICS_RETRY_DELAY_MS).toBeLessThanOrEqual(1_000);
  });
});
