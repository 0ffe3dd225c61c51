import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { agentRoutes, type Agent } from '../../../contract/api/agent';
import { countryRoutes } from '../../../contract/api/country';
import { AccountType } from '../../../contract/enums';
import { accountOf, apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { AgentList } from './AgentList';

const agent: Agent = { id: 4, account: accountOf(AccountType.Agent, { id: 40, firstName: 'Ann', lastName: 'Agent' }), totalCustomers: 3 };

function answer(bodies: unknown[]) {
  server.use(
    http.post(apiUrl(agentRoutes.filter.path), async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(ok(agentRoutes.filter, { data: [agent], paging: { totalCount: 1, pageIndex: 0, pageSize: 50 } }));
    }),
    http.get(apiUrl(agentRoutes.statistics.path), () => HttpResponse.json(ok(agentRoutes.statistics, { active: 5, blocked: 1 }))),
    http.post(apiUrl(countryRoutes.search.path), () =>
      HttpResponse.json(ok(countryRoutes.search, { data: [{ id: 5, name: 'Singapore', imageUrl: '/flags/sg.svg', countryCode: 'SG', dialCode: '+65' }], paging: { totalCount: 1, pageIndex: 0, pageSize: 100 } })),
    ),
  );
}

describe('Agent List', () => {
  it('restores country and page from the URL, sorts Total Clientele, counts Active and Blocked (one label per state: issue 28 item 9)', async () => {
    const bodies: unknown[] = [];
    answer(bodies);
    const view = renderWithAdmin(<AgentList />, { path: '/agents', url: '/agents?country=5&pageIndex=2', accountType: AccountType.Admin });
    expect(await screen.findByText('Active(5)')).toBeInTheDocument();
    expect(screen.getByText('Blocked(1)')).toBeInTheDocument();
    await waitFor(() => expect(bodies.at(-1)).toEqual({ pageIndex: 1, pageSize: 50, filter: { countryIds: [5] }, sort: null }));
    const user = userEvent.setup();
    await user.click(await screen.findByText('Total Clientele'));
    await waitFor(() => expect(bodies.at(-1)).toEqual({ pageIndex: 0, pageSize: 50, filter: { countryIds: [5] }, sort: { name: 'totalCustomers', type: 1 } }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Country' })).toHaveValue('Singapore'));
    await user.click(screen.getByRole('combobox', { name: 'Country' }));
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(view.location()).toBe('/agents?sort=totalCustomers&order=1'));
    expect(screen.getByRole('link', { name: 'Add Agent' })).not.toHaveAttribute('aria-disabled');
  });

  it('disables Add Agent for an employee', async () => {
    answer([]);
    const view = renderWithAdmin(<AgentList />, { path: '/agents', accountType: AccountType.Employee });
    await screen.findByRole('link', { name: 'Add Agent' });
    await view.settled();
    expect(screen.getByRole('link', { name: 'Add Agent' })).toHaveAttribute('aria-disabled', 'true');
  });
});
