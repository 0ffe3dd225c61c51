import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPublic } from '../test/renderPublic';
import { useListFilters } from './useListFilters';

function Probe() {
  const { filters, page, setFilter, setPage, reset } = useListFilters(['symbol', 'month'] as const);
  return (
    <div>
      <output data-testid="state">{JSON.stringify({ filters, page })}</output>
      <button onClick={() => setFilter('symbol', 'ETHUSDT')}>symbol</button>
      <button onClick={() => setFilter('month', '')}>clear month</button>
      <button onClick={() => setPage(3)}>page 3</button>
      <button onClick={() => setPage(1)}>page 1</button>
      <button onClick={reset}>reset</button>
    </div>
  );
}

const state = () => JSON.parse(screen.getByTestId('state').textContent ?? '{}');

describe('useListFilters', () => {
  it('restores filters and the page from the query string, ignoring other parameters', () => {
    renderPublic(<Probe />, { path: '/admin/orders', url: '/admin/orders?symbol=BTCUSDT&month=2025-01&pageIndex=4&other=x' });
    expect(state()).toEqual({ filters: { symbol: 'BTCUSDT', month: '2025-01' }, page: 4 });
  });

  it('changing a filter updates the query string and resets to page 1', () => {
    const view = renderPublic(<Probe />, { path: '/admin/orders', url: '/admin/orders?month=2025-01&pageIndex=4&other=x' });
    fireEvent.click(screen.getByText('symbol'));
    expect(view.location()).toBe('/admin/orders?month=2025-01&other=x&symbol=ETHUSDT');
    expect(state()).toEqual({ filters: { symbol: 'ETHUSDT', month: '2025-01' }, page: 1 });
    fireEvent.click(screen.getByText('clear month'));
    expect(view.location()).toBe('/admin/orders?other=x&symbol=ETHUSDT');
  });

  it('writes the 1-based page as pageIndex, and reset clears filters and page', () => {
    const view = renderPublic(<Probe />, { path: '/admin/orders', url: '/admin/orders?symbol=BTCUSDT' });
    fireEvent.click(screen.getByText('page 3'));
    expect(view.location()).toBe('/admin/orders?symbol=BTCUSDT&pageIndex=3');
    expect(state().page).toBe(3);
    fireEvent.click(screen.getByText('page 1'));
    expect(view.location()).toBe('/admin/orders?symbol=BTCUSDT');
    fireEvent.click(screen.getByText('page 3'));
    fireEvent.click(screen.getByText('reset'));
    expect(view.location()).toBe('/admin/orders');
    expect(state()).toEqual({ filters: {}, page: 1 });
  });

  it('ignores a page index that is not a positive whole number', () => {
    renderPublic(<Probe />, { path: '/x', url: '/x?pageIndex=-2' });
    expect(state().page).toBe(1);
  });
});
