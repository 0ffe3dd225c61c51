import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { agentRoutes, type Agent } from '../../../contract/api/agent';
import { AccountStatus, AccountType } from '../../../contract/enums';
import { ui } from '../../../contract/messages';
import { accountOf, apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { AgentShow } from './AgentShow';

const agentWith = (id: number, firstName: string, totalCustomers: number, status: AccountStatus = AccountStatus.Active): Agent => ({
  id,
  account: accountOf(AccountType.Agent, { id: id * 10, firstName, lastName: 'Agent', status }),
  totalCustomers,
});
const leaving = agentWith(4, 'Leo', 2);
const others = [leaving, agentWith(5, 'Nina', 0), agentWith(6, 'Bo', 1, AccountStatus.Blocked)];

function answer(deletes: string[]) {
  server.use(
    http.get(apiUrl('/api/agent/4'), () => HttpResponse.json(ok(agentRoutes.byId, leaving))),
    http.get(apiUrl(agentRoutes.dashboardOf.path.replace(':agentId', '4')), () =>
      HttpResponse.json(ok(agentRoutes.dashboardOf, { totalCustomers: 2, prevMonthAmountEarned: 0, totalAmountEarned: 0 })),
    ),
    http.get(apiUrl(agentRoutes.all.path), () => HttpResponse.json(ok(agentRoutes.all, { data: others, paging: { totalCount: 3, pageIndex: 0, pageSize: 100 } }))),
    http.delete(apiUrl('/api/agent/4'), ({ request }) => {
      deletes.push(new URL(request.url).search);
      return HttpResponse.json(ok(agentRoutes.delete, { success: true }));
    }),
  );
}

describe('Agent profile: deleting an agent who has customers (issue 28 item 6)', () => {
  it('says how many customers, moves them to the chosen active agent, then deletes', async () => {
    const deletes: string[] = [];
    answer(deletes);
    const view = renderWithAdmin(<AgentShow />, { path: '/agent/:id', url: '/agent/4', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions' }));
    await view.settled();
    await user.click(screen.getByRole('menuitem', { name: 'Delete Account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm delete this account' });
    expect(dialog).toHaveTextContent('This agent has 2 customers. Choose the agent they move to.');
    expect(within(dialog).getByRole('button', { name: 'Move and delete' })).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: 'Move the customers to' }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Nina Agent']);
    await user.click(screen.getByRole('option', { name: 'Nina Agent' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move and delete' }));
    expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent(ui.accountsSuccess.accountDeleted);
    expect(deletes).toEqual(['?moveCustomersTo=5']);
    await user.click(screen.getByRole('button', { name: 'Closed' }));
    await waitFor(() => expect(view.location()).toBe('/agents'));
    // The file's first render loads react-admin and MUI (about 10 s of the budget on the shared CI machine).
  }, 40_000);
});
