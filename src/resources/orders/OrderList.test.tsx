import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { orderRoutes, type Order } from '../../../contract/api/order';
import { AccountType } from '../../../contract/enums';
import { ui } from '../../../contract/messages';
import { apiUrl, failed, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { OrderList } from './OrderList';

const order: Order = {
  id: 41,
  strategy: { id: 'BTC001', symbol: 'BTCUSDT' },
  status: 1,
  entryType: 2,
  side: 1,
  realizedPnl: 0,
  closing: false,
  closeProgress: null,
  datetimeInserted: '2025-01-05T10:30:00.000Z',
  datetimeUpdated: '2025-01-05T10:30:00.000Z',
};

function answer(searches: unknown[]) {
  server.use(
    http.post(apiUrl(orderRoutes.search.path), async ({ request }) => {
      searches.push(await request.json());
      return HttpResponse.json(ok(orderRoutes.search, { data: [order], paging: { totalCount: 120, pageIndex: 0, pageSize: 50 } }));
    }),
    http.get(apiUrl(orderRoutes.statistics.path), () => HttpResponse.json(ok(orderRoutes.statistics, { win: 3, loss: 2, totalDeal: 6 }))),
    http.get(apiUrl(orderRoutes.symbols.path), () => HttpResponse.json(ok(orderRoutes.symbols, { symbols: ['BTCUSDT', 'ETHUSDT'] }))),
  );
}

describe('Order & Alert', () => {
  it('restores symbol, month and page from the URL and sends them as the spec filter names', async () => {
    const searches: unknown[] = [];
    answer(searches);
    const view = renderWithAdmin(<OrderList />, { path: '/admin/orders', url: '/admin/orders?symbol=BTCUSDT&month=2025-01&pageIndex=2', accountType: AccountType.Admin });
    expect(await screen.findByText('TotalDeal(6)')).toBeInTheDocument();
    expect(screen.getByText('Win(3)')).toBeInTheDocument();
    expect(screen.getByText('Loss(2)')).toBeInTheDocument();
    await waitFor(() =>
      expect(searches.at(-1)).toEqual({
        pageIndex: 1,
        pageSize: 50,
        filter: [
          { name: 'strategy.symbol', value: 'BTCUSDT' },
          { name: 'datetimeInserted', value: '2025-01' },
        ],
      }),
    );
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Month'));
    await user.click(await screen.findByRole('option', { name: 'All month' }));
    await waitFor(() => expect(view.location()).toBe('/admin/orders?symbol=BTCUSDT'));
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(view.location()).toBe('/admin/orders'));
  });

  it('lets an admin close an active order after confirming', async () => {
    answer([]);
    let closed = 0;
    server.use(
      http.patch(apiUrl('/api/order/41'), () => {
        closed += 1;
        return HttpResponse.json(ok(orderRoutes.close, { ...order, status: 2 }));
      }),
    );
    renderWithAdmin(<OrderList />, { path: '/admin/orders', accountType: AccountType.Admin });
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: 'Close the position of order 41' });
    expect(toggle).toBeChecked();
    await user.click(toggle);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(ui.strategy.positionClosed)).toBeInTheDocument();
    expect(closed).toBe(1);
  });

  it('follows the close until the server says it is over, then says so, and the row and counters follow without a reload (issue 28 items 2, 3)', async () => {
    const closing: Order = { ...order, closing: true, closeProgress: { total: 2, closed: 0, open: 2 } };
    const settled: Order = { ...order, status: 2, realizedPnl: 14.16, closing: false, closeProgress: { total: 2, closed: 2, open: 0 } };
    let current = order;
    let statistics = { win: 3, loss: 2, totalDeal: 6 };
    const closes: number[] = [];
    server.use(
      http.post(apiUrl(orderRoutes.search.path), () => {
        const answered = current;
        // The engine finishes after the first reading the popup makes.
        if (current === closing) {
          current = settled;
          statistics = { win: 4, loss: 2, totalDeal: 6 };
        }
        return HttpResponse.json(ok(orderRoutes.search, { data: [answered], paging: { totalCount: 1, pageIndex: 0, pageSize: 50 } }));
      }),
      http.get(apiUrl(orderRoutes.statistics.path), () => HttpResponse.json(ok(orderRoutes.statistics, statistics))),
      http.get(apiUrl(orderRoutes.symbols.path), () => HttpResponse.json(ok(orderRoutes.symbols, { symbols: ['BTCUSDT'] }))),
      http.patch(apiUrl('/api/order/41'), () => {
        closes.push(41);
        current = closing;
        return HttpResponse.json(ok(orderRoutes.close, closing));
      }),
    );
    const view = renderWithAdmin(<OrderList />, { path: '/admin/orders', accountType: AccountType.Admin });
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: 'Close the position of order 41' });
    await view.settled();
    expect(screen.getByText('Win(3)')).toBeInTheDocument();
    await user.click(toggle);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const popup = await screen.findByRole('dialog', { name: 'Success' }, { timeout: 10_000 });
    expect(within(popup).getByText(ui.strategy.positionClosed)).toBeInTheDocument();
    await user.click(within(popup).getByRole('button', { name: 'Closed' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Win(4)')).toBeInTheDocument();
    expect(await screen.findByText('Win')).toBeInTheDocument();
    expect(screen.getByText('14.16 USDT')).toBeInTheDocument();
    const after = screen.getByRole('switch', { name: 'Close the position of order 41' });
    expect(after).not.toBeChecked();
    expect(after).toBeDisabled();
    expect(closes).toEqual([41]);
  });

  it('says how many positions closed when some stay open, never a success; the toggle is on again (issue 28 item 2)', async () => {
    const partly: Order = { ...order, closing: false, closeProgress: { total: 3, closed: 2, open: 1 } };
    let current = order;
    server.use(
      http.post(apiUrl(orderRoutes.search.path), () => HttpResponse.json(ok(orderRoutes.search, { data: [current], paging: { totalCount: 1, pageIndex: 0, pageSize: 50 } }))),
      http.get(apiUrl(orderRoutes.statistics.path), () => HttpResponse.json(ok(orderRoutes.statistics, { win: 0, loss: 0, totalDeal: 1 }))),
      http.get(apiUrl(orderRoutes.symbols.path), () => HttpResponse.json(ok(orderRoutes.symbols, { symbols: ['BTCUSDT'] }))),
      http.patch(apiUrl('/api/order/41'), () => {
        current = partly;
        return HttpResponse.json(ok(orderRoutes.close, { ...order, closing: true, closeProgress: { total: 3, closed: 0, open: 3 } }));
      }),
    );
    const view = renderWithAdmin(<OrderList />, { path: '/admin/orders', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: 'Close the position of order 41' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const popup = await screen.findByRole('dialog', { name: 'Error' }, { timeout: 10_000 });
    expect(popup).toHaveTextContent('2 of 3 closed, the rest still protected');
    expect(screen.queryByText(ui.strategy.positionClosed)).not.toBeInTheDocument();
    await user.click(within(popup).getByRole('button', { name: 'Closed' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await view.settled();
    const toggle = screen.getByRole('switch', { name: 'Close the position of order 41' });
    expect(toggle).toBeChecked();
    expect(toggle).toBeEnabled();
  });

  it("shows the server's refusal of a close, not a success", async () => {
    answer([]);
    server.use(http.patch(apiUrl('/api/order/41'), () => HttpResponse.json(failed('Order 41 is already being closed.'), { status: 409 })));
    renderWithAdmin(<OrderList />, { path: '/admin/orders', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: 'Close the position of order 41' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const popup = await screen.findByRole('dialog', { name: 'Error' });
    expect(popup).toHaveTextContent('Order 41 is already being closed.');
    expect(screen.queryByText(ui.strategy.positionClosed)).not.toBeInTheDocument();
  });

  it('disables the toggle for an employee', async () => {
    answer([]);
    const view = renderWithAdmin(<OrderList />, { path: '/employee/orders', accountType: AccountType.Employee });
    await screen.findByRole('switch', { name: 'Close the position of order 41' });
    await view.settled();
    expect(screen.getByRole('switch', { name: 'Close the position of order 41' })).toBeDisabled();
  });
});
