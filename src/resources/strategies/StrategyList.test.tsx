import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { strategyRoutes, type Strategy } from '../../../contract/api/strategy';
import { AccountType } from '../../../contract/enums';
import { apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { StrategyList } from './StrategyList';

const empty = { data: [], paging: { totalCount: 0, pageIndex: 0, pageSize: 50 } };
const strategy: Strategy = {
  id: 'BTC001',
  symbol: 'BTCUSDT',
  groups: [{ group: 1, investAmount: { type: 1, amount: 100 } }],
  entryDirection: 1,
  leverage: 50,
  positionMode: 1,
  takeProfitType: 3,
  takeProfitMode: 1,
  tp1: { targetLevel: 2, closeVolume: 100 },
  tp2: { targetLevel: null, closeVolume: 0 },
  tp3: { targetLevel: null, closeVolume: 0 },
  stopLoss: { type: 3, amount: 1 },
  advanceStopLoss: false,
  trailingStop: false,
  positionActivation: { type: null, amount: null },
  positionClose: { type: null, amount: null },
  status: 1,
  exclusiveCustomerId: null,
  exclusiveCustomer: null,
  webhookUrl: 'http://localhost/api/webhook/abc123',
  hasWebhook: true,
  win: 3,
  loss: 1,
  datetimeInserted: '2025-03-01T00:00:00.000Z',
  datetimeUpdated: '2025-03-01T00:00:00.000Z',
};
/** One strategy unless the search filters by symbol (then none: the empty text). */
const answerOf = (body: { filter?: unknown[] }) => (body.filter && body.filter.length > 0 ? empty : { data: [strategy], paging: { totalCount: 1, pageIndex: 0, pageSize: 50 } });

/** The Symbol column's header (its sort button is named 'Sort by Symbol ...'). */
const symbolHeader = () => screen.findByRole('columnheader', { name: /Symbol/ });

describe('Strategy Setting Record', () => {
  it('keeps symbol and page in the URL, sorts Symbol in three states, and shows the empty text', async () => {
    const searches: unknown[] = [];
    const sorts: unknown[] = [];
    server.use(
      http.post(apiUrl(strategyRoutes.search.path), async ({ request }) => {
        const body = (await request.json()) as { filter?: unknown[] };
        searches.push(body);
        return HttpResponse.json(ok(strategyRoutes.search, answerOf(body)));
      }),
      http.post(apiUrl(strategyRoutes.sortBySymbol.path), async ({ request }) => {
        sorts.push(await request.json());
        return HttpResponse.json(ok(strategyRoutes.sortBySymbol, answerOf({})));
      }),
    );
    const view = renderWithAdmin(<StrategyList />, { path: '/admin/strategies', url: '/admin/strategies?symbol=BTC&pageIndex=2', accountType: AccountType.Admin });
    expect(await screen.findByText('No records available')).toBeInTheDocument();
    expect(searches.at(-1)).toEqual({ pageIndex: 1, pageSize: 50, filter: [{ name: 'symbol', value: 'BTC' }] });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(view.location()).toBe('/admin/strategies'));
    await user.click((await symbolHeader()).querySelector('span')!);
    await waitFor(() => expect(sorts.at(-1)).toEqual({ pageIndex: 0, pageSize: 50, type: 1 }));
    await user.click((await symbolHeader()).querySelector('span')!);
    await waitFor(() => expect(sorts.at(-1)).toEqual({ pageIndex: 0, pageSize: 50, type: 2 }));
    const before = searches.length;
    await user.click((await symbolHeader()).querySelector('span')!);
    await waitFor(() => expect(searches.length).toBeGreaterThan(before));
    expect(view.location()).toBe('/admin/strategies');
  });
});
