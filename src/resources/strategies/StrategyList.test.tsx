import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { strategyRoutes } from '../../../contract/api/strategy';
import { AccountType } from '../../../contract/enums';
import { apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { StrategyList } from './StrategyList';

const empty = { data: [], paging: { totalCount: 0, pageIndex: 0, pageSize: 50 } };

describe('Strategy Setting Record', () => {
  it('keeps symbol and page in the URL, sorts Symbol in three states, and shows the empty text', async () => {
    const searches: unknown[] = [];
    const sorts: unknown[] = [];
    server.use(
      http.post(apiUrl(strategyRoutes.search.path), async ({ request }) => {
        searches.push(await request.json());
        return HttpResponse.json(ok(strategyRoutes.search, empty));
      }),
      http.post(apiUrl(strategyRoutes.sortBySymbol.path), async ({ request }) => {
        sorts.push(await request.json());
        return HttpResponse.json(ok(strategyRoutes.sortBySymbol, empty));
      }),
    );
    const view = renderWithAdmin(<StrategyList />, { path: '/admin/strategies', url: '/admin/strategies?symbol=BTC&pageIndex=2', accountType: AccountType.Admin });
    expect(await screen.findByText('No records available')).toBeInTheDocument();
    expect(searches.at(-1)).toEqual({ pageIndex: 1, pageSize: 50, filter: [{ name: 'symbol', value: 'BTC' }] });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(view.location()).toBe('/admin/strategies'));
    await user.click(screen.getByRole('columnheader', { name: 'Symbol' }).querySelector('span')!);
    await waitFor(() => expect(sorts.at(-1)).toEqual({ pageIndex: 0, pageSize: 50, type: 1 }));
    await user.click(screen.getByRole('columnheader', { name: 'Symbol' }).querySelector('span')!);
    await waitFor(() => expect(sorts.at(-1)).toEqual({ pageIndex: 0, pageSize: 50, type: 2 }));
    const before = searches.length;
    await user.click(screen.getByRole('columnheader', { name: 'Symbol' }).querySelector('span')!);
    await waitFor(() => expect(searches.length).toBeGreaterThan(before));
    expect(view.location()).toBe('/admin/strategies');
  });
});
