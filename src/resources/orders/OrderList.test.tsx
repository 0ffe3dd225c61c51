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

  it('shows the close in the row at once, so the same order cannot be closed twice (issue 10)', async () => {
    // The order search still answers the order as it was (positions are being closed on the exchanges).
    answer([]);
    const closes: number[] = [];
    server.use(
      http.patch(apiUrl('/api/order/41'), () => {
        closes.push(41);
        if (closes.length > 1) return HttpResponse.json(failed('Order 41 is already being closed.'), { status: 409 });
        return HttpResponse.json(ok(orderRoutes.close, { ...order, closing: true }));
      }),
    );
    const view = renderWithAdmin(<OrderList />, { path: '/admin/orders', accountType: AccountType.Admin });
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: 'Close the position of order 41' });
    await view.settled();
    await user.click(toggle);
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    const popup = await screen.findByRole('dialog', { name: 'Success' });
    expect(within(popup).getByText(ui.strategy.positionClosed)).toBeInTheDocument();
    await user.click(within(popup).getByRole('button', { name: 'Closed' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await view.settled();
    const after = screen.getByRole('switch', { name: 'Close the position of order 41' });
    expect(after).not.toBeChecked();
    expect(after).toBeDisabled();
    expect(closes).toEqual([41]);
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
