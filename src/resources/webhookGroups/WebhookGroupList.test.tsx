import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { webhookGroupRoutes, type WebhookGroup } from '../../../contract/api/webhookGroup';
import { AccountType, CustomerGroup } from '../../../contract/enums';
import { apiUrl, failed, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { WebhookGroupList } from './WebhookGroupList';

const groups: WebhookGroup[] = [
  { id: 1, group: CustomerGroup.Gold, isActive: false, datetimeUpdated: '2025-05-01T10:00:00.000Z' },
  { id: 3, group: CustomerGroup.Vip, isActive: true, datetimeUpdated: '2025-05-02T11:30:00.000Z' },
];

function answerGroups(rows: WebhookGroup[], queries: string[] = []) {
  server.use(
    http.get(apiUrl(webhookGroupRoutes.list.path), ({ request }) => {
      queries.push(new URL(request.url).search);
      return HttpResponse.json(ok(webhookGroupRoutes.list, { data: rows, paging: { totalCount: rows.length, pageIndex: 0, pageSize: 5 } }));
    }),
  );
}

afterEach(() => vi.restoreAllMocks());

describe('Receive Webhook Once (/activity/webhook)', () => {
  it('shows an employee every group with its switch disabled', async () => {
    const queries: string[] = [];
    answerGroups(groups, queries);
    const view = renderWithAdmin(<WebhookGroupList />, { path: '/activity/webhook', accountType: AccountType.Employee });
    const gold = await screen.findByRole('switch', { name: 'Gold' });
    await view.settled();
    expect(gold).toBeDisabled();
    expect(gold).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Vip' })).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Vip' })).toBeChecked();
    expect(screen.getByRole('row', { name: /Vip/ })).toHaveTextContent('02/05/2025');
    expect(queries).toEqual(['?pageIndex=0&pageSize=5']);
  });

  it('lets an admin switch a group and shows the answer', async () => {
    answerGroups(groups);
    const bodies: unknown[] = [];
    server.use(
      http.patch(apiUrl(webhookGroupRoutes.update.path.replace(':id', '1')), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(ok(webhookGroupRoutes.update, { id: 1, isActive: true, datetimeUpdated: '2025-06-07T08:09:00.000Z' }));
      }),
    );
    const view = renderWithAdmin(<WebhookGroupList />, { path: '/activity/webhook', accountType: AccountType.Admin });
    const gold = await screen.findByRole('switch', { name: 'Gold' });
    await view.settled();
    await userEvent.setup().click(gold);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Gold' })).toBeChecked());
    expect(bodies).toEqual([{ isActive: true }]);
    expect(within(screen.getByRole('row', { name: /Gold/ })).getByText(/07\/06\/2025/)).toBeInTheDocument();
  });

  it("says 'No records available' when the read fails, and only logs the failure", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get(apiUrl(webhookGroupRoutes.list.path), () => HttpResponse.json(failed('Permission denied'), { status: 403 })));
    renderWithAdmin(<WebhookGroupList />, { path: '/activity/webhook', accountType: AccountType.Employee });
    expect(await screen.findByText('No records available')).toBeInTheDocument();
    expect(screen.queryAllByTestId('skeleton-row')).toEqual([]);
    expect(logged.mock.calls.some(([error]) => error instanceof Error && error.message === 'Permission denied')).toBe(true);
  });
});
