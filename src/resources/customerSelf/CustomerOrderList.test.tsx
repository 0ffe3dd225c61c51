import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { orderRoutes, type CustomerExecution } from '../../../contract/api/order';
import { AccountType, OrderStatus } from '../../../contract/enums';
import { apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { CustomerOrderList } from './CustomerOrderList';

const execution = (id: number, overrides: Partial<CustomerExecution>): CustomerExecution => ({
  id,
  orderId: 100 + id,
  strategy: { id: 'BTC001', symbol: 'BTCUSDT' },
  side: 1,
  entryType: 2,
  status: OrderStatus.Loss,
  state: 'closed',
  quantity: 0.002,
  entryPrice: 60000,
  realizedPnl: 0,
  datetimeInserted: '2025-01-05T10:30:00.000Z',
  datetimeUpdated: '2025-01-05T10:30:00.000Z',
  ...overrides,
});

describe("the customer's own Order & Alert", () => {
  it("shows the customer's own result beside their own PnL, not the order's overall one (issue 28 item 8)", async () => {
    const rows = [
      execution(1, { status: OrderStatus.Loss, realizedPnl: 14.16 }),
      execution(2, { status: OrderStatus.Win, realizedPnl: -3.5 }),
      execution(3, { status: OrderStatus.Active, state: 'open' }),
      execution(4, { status: OrderStatus.Win, state: 'failed', quantity: null, entryPrice: null }),
    ];
    server.use(http.post(apiUrl(orderRoutes.customerSearch.path), () => HttpResponse.json(ok(orderRoutes.customerSearch, { data: rows, paging: { totalCount: 4, pageIndex: 0, pageSize: 50 } }))));
    renderWithAdmin(<CustomerOrderList />, { path: '/customer/orders', accountType: AccountType.Customer });
    // The list's first render (react-admin and MUI loading) may take a while on a busy machine.
    await screen.findByRole('cell', { name: '104' }, { timeout: 10_000 });
    const resultOf = async (orderId: number) => {
      const row = (await screen.findByRole('cell', { name: String(orderId) })).closest('tr')!;
      return within(row as HTMLElement).getAllByRole('cell').map((cell) => cell.textContent);
    };
    expect(await resultOf(101)).toEqual(expect.arrayContaining(['Win', '14.16 USDT']));
    expect(await resultOf(102)).toEqual(expect.arrayContaining(['Loss', '-3.50 USDT']));
    expect(await resultOf(103)).toEqual(expect.arrayContaining(['Active']));
    expect(await resultOf(104)).toEqual(expect.arrayContaining(['Not opened (failed)']));
    expect(screen.getByRole('columnheader', { name: 'My Result' })).toBeInTheDocument();
  });
});
