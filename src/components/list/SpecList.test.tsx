import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useListContext } from 'ra-core';
import { describe, expect, it } from 'vitest';
import { orderRoutes } from '../../../contract/api/order';
import { AccountType } from '../../../contract/enums';
import { apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { NOT_SORTED, SpecList, nextSort } from './SpecList';

function Probe() {
  const { filterValues, page, perPage, sort, setFilters, setPage, setSort } = useListContext();
  return (
    <div>
      <output data-testid="state">{JSON.stringify({ filters: filterValues, page, perPage, sort })}</output>
      <button onClick={() => setFilters({ ...filterValues, symbol: 'ETHUSDT' }, undefined, false)}>symbol</button>
      <button onClick={() => setFilters({ ...filterValues, month: '' }, undefined, false)}>clear month</button>
      <button onClick={() => setPage(3)}>page 3</button>
      <button onClick={() => setPage(1)}>page 1</button>
      <button onClick={() => setSort({ field: 'symbol', order: 'ASC' })}>sort</button>
      <button onClick={() => setSort({ field: 'symbol', order: sort.order === 'ASC' ? 'DESC' : 'ASC' })}>sort again</button>
      <button onClick={() => setFilters({}, {}, false)}>reset</button>
    </div>
  );
}

const state = () => JSON.parse(screen.getByTestId('state').textContent ?? '{}');

function renderList(url: string, searches: unknown[] = []) {
  server.use(
    http.post(apiUrl(orderRoutes.search.path), async ({ request }) => {
      searches.push(await request.json());
      return HttpResponse.json(ok(orderRoutes.search, { data: [], paging: { totalCount: 0, pageIndex: 0, pageSize: 50 } }));
    }),
  );
  return renderWithAdmin(
    <SpecList resource="orders" filters={['symbol', 'month']}>
      <Probe />
    </SpecList>,
    { path: '/admin/orders', url, accountType: AccountType.Admin },
  );
}

describe('SpecList: react-admin list parameters in the spec query string', () => {
  it('restores filters, page and page size from the query string, ignoring other parameters', async () => {
    const searches: unknown[] = [];
    renderList('/admin/orders?symbol=BTCUSDT&month=2025-01&pageIndex=4&pageSize=25&other=x', searches);
    expect(state()).toEqual({ filters: { symbol: 'BTCUSDT', month: '2025-01' }, page: 4, perPage: 25, sort: NOT_SORTED });
    await waitFor(() =>
      expect(searches.at(-1)).toEqual({
        pageIndex: 3,
        pageSize: 25,
        filter: [
          { name: 'strategy.symbol', value: 'BTCUSDT' },
          { name: 'datetimeInserted', value: '2025-01' },
        ],
      }),
    );
  });

  it('changing a filter updates the query string and goes back to page 1', async () => {
    const view = renderList('/admin/orders?month=2025-01&pageIndex=4&other=x');
    fireEvent.click(screen.getByText('symbol'));
    await waitFor(() => expect(view.location()).toBe('/admin/orders?month=2025-01&other=x&symbol=ETHUSDT'));
    expect(state()).toMatchObject({ filters: { symbol: 'ETHUSDT', month: '2025-01' }, page: 1 });
    fireEvent.click(screen.getByText('clear month'));
    await waitFor(() => expect(view.location()).toBe('/admin/orders?other=x&symbol=ETHUSDT'));
  });

  it('writes the 1-based page as pageIndex; reset clears filters and page', async () => {
    const view = renderList('/admin/orders?symbol=BTCUSDT');
    fireEvent.click(screen.getByText('page 3'));
    await waitFor(() => expect(view.location()).toBe('/admin/orders?symbol=BTCUSDT&pageIndex=3'));
    expect(state().page).toBe(3);
    fireEvent.click(screen.getByText('page 1'));
    await waitFor(() => expect(view.location()).toBe('/admin/orders?symbol=BTCUSDT'));
    fireEvent.click(screen.getByText('page 3'));
    await waitFor(() => expect(view.location()).toBe('/admin/orders?symbol=BTCUSDT&pageIndex=3'));
    fireEvent.click(screen.getByText('reset'));
    await waitFor(() => expect(view.location()).toBe('/admin/orders'));
    expect(state()).toMatchObject({ filters: {}, page: 1 });
  });

  it('cycles the sort none, ascending, descending, none in the query string', async () => {
    const view = renderList('/admin/orders');
    fireEvent.click(screen.getByText('sort'));
    await waitFor(() => expect(view.location()).toBe('/admin/orders?sort=symbol&order=1'));
    fireEvent.click(screen.getByText('sort again'));
    await waitFor(() => expect(view.location()).toBe('/admin/orders?sort=symbol&order=2'));
    fireEvent.click(screen.getByText('sort again'));
    await waitFor(() => expect(view.location()).toBe('/admin/orders'));
    expect(state().sort).toEqual(NOT_SORTED);
  });

  it('ignores a page index that is not a positive whole number', () => {
    renderList('/admin/orders?pageIndex=-2');
    expect(state().page).toBe(1);
  });
});

describe('three-state sort', () => {
  it('goes from descending back to not sorted, and starts ascending on another column', () => {
    expect(nextSort(NOT_SORTED, { field: 'symbol', order: 'ASC' })).toEqual({ field: 'symbol', order: 'ASC' });
    expect(nextSort({ field: 'symbol', order: 'ASC' }, { field: 'symbol', order: 'DESC' })).toEqual({ field: 'symbol', order: 'DESC' });
    expect(nextSort({ field: 'symbol', order: 'DESC' }, { field: 'symbol', order: 'ASC' })).toEqual(NOT_SORTED);
    expect(nextSort({ field: 'a', order: 'DESC' }, { field: 'b', order: 'ASC' })).toEqual({ field: 'b', order: 'ASC' });
  });
});
