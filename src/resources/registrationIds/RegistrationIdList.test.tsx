import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { registrationIdRoutes, type RegistrationIdItem } from '../../../contract/api/registrationId';
import { AccountType, RegistrationIdStatus } from '../../../contract/enums';
import { apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { RegistrationIdList } from './RegistrationIdList';

const item: RegistrationIdItem = {
  id: 7,
  code: 'K7PQ2MZ9XR4T',
  status: RegistrationIdStatus.Registered,
  datetimeInserted: '2025-03-04T08:00:00.000Z',
  datetimeRegistered: '2025-03-06T09:30:00.000Z',
  agent: { id: 3, firstName: 'Amy', lastName: 'Agent' },
};

function answer(searches: unknown[]) {
  server.use(
    http.post(apiUrl(registrationIdRoutes.search.path), async ({ request }) => {
      searches.push(await request.json());
      return HttpResponse.json(ok(registrationIdRoutes.search, { data: [item], paging: { totalCount: 250, pageIndex: 0, pageSize: 100 } }));
    }),
    http.get(apiUrl(registrationIdRoutes.statistics.path), () => HttpResponse.json(ok(registrationIdRoutes.statistics, { used: 4, pending: 5, expired: 6 }))),
  );
}

describe('Registration ID Record', () => {
  it('restores status and page from the URL, sends 100 per page, and goes back to page 1 on a filter change', async () => {
    const searches: unknown[] = [];
    answer(searches);
    const view = renderWithAdmin(<RegistrationIdList />, { path: '/agent/registrationids', url: '/agent/registrationids?status=2&pageIndex=3', accountType: AccountType.Agent });
    expect(await screen.findByText('K7PQ2MZ9XR4T')).toBeInTheDocument();
    expect(screen.getByText('06/03/2025')).toBeInTheDocument();
    await waitFor(() => expect(searches.at(-1)).toEqual({ pageIndex: 2, pageSize: 100, filter: [{ name: 'status', value: 2 }] }));

    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Status'));
    await user.click(await screen.findByRole('option', { name: 'Expired' }));
    await waitFor(() => expect(view.location()).toBe('/agent/registrationids?status=3'));
    await waitFor(() => expect(searches.at(-1)).toEqual({ pageIndex: 0, pageSize: 100, filter: [{ name: 'status', value: 3 }] }));

    await user.click(screen.getByLabelText('Status'));
    await user.click(await screen.findByRole('option', { name: 'All Statuses' }));
    await waitFor(() => expect(view.location()).toBe('/agent/registrationids'));
  });
});
