import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentRoutes, type Agent } from '../../../contract/api/agent';
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
});
