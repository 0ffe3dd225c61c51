import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { auditRoutes, type AuditItem } from '../../../contract/api/audit';
import { orderRoutes } from '../../../contract/api/order';
import { AccountType } from '../../../contract/enums';
import { apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { ExitAuditList } from '../exitAudits/ExitAuditList';
import { EntryAuditList } from './EntryAuditList';

const row = (id: number, overrides: Partial<AuditItem> = {}): AuditItem => ({
  id,
  transactionId: 100 + id,
  customer: { id: 7, firstName: 'Cara', lastName: 'Customer', agent: null },
  strategy: { id: 'BTC1', symbol: 'BTCUSDT', entryDirection: 1 },
  entryType: 2,
  exitType: null,
  datetimeInserted: '2025-03-10T08:00:00.000Z',
  message: `message ${id}`,
  ...overrides,
});

function answer(kind: 'entry' | 'exit', rows: AuditItem[]) {
  const search = kind === 'entry' ? auditRoutes.entrySearch : auditRoutes.exitSearch;
  server.use(
    http.post(apiUrl(search.path), () => HttpResponse.json(ok(search, { data: rows, paging: { totalCount: rows.length, pageIndex: 0, pageSize: 50 } }))),
    // 87 entries were attempted, none failed: the audit has no rows.
    http.get(apiUrl(auditRoutes.entryStatistics.path), () => HttpResponse.json(ok(auditRoutes.entryStatistics, { total: 87, errors: 0 }))),
    http.get(apiUrl(auditRoutes.exitStatistics.path), () => HttpResponse.json(ok(auditRoutes.exitStatistics, { error: 1 }))),
    http.get(apiUrl(orderRoutes.transactionIds.path), () => HttpResponse.json(ok(orderRoutes.transactionIds, [101]))),
    http.get(apiUrl(orderRoutes.symbols.path), () => HttpResponse.json(ok(orderRoutes.symbols, { symbols: ['BTCUSDT'] }))),
  );
}

describe('Entry Order Audit counters', () => {
  it('Total counts the rows of the list, not the entries attempted: no Total(87) above "No records available"', async () => {
    answer('entry', []);
    const view = renderWithAdmin(<EntryAuditList />, { path: '/activity/entry', accountType: AccountType.Admin });
    expect(await screen.findByText('No records available')).toBeInTheDocument();
    await view.settled();
    expect(screen.getByText('Total(0)')).toBeInTheDocument();
    expect(screen.getByText('Errors(0)')).toBeInTheDocument();
    expect(screen.queryByText('Total(87)')).toBeNull();
  });

  it('Total follows the filtered list', async () => {
    answer('entry', [row(1), row(2), row(3)]);
    const view = renderWithAdmin(<EntryAuditList />, { path: '/activity/entry', url: '/activity/entry?current=today', accountType: AccountType.Admin });
    expect(await screen.findByText('message 3')).toBeInTheDocument();
    await view.settled();
    expect(screen.getByText('Total(3)')).toBeInTheDocument();
  });
});

describe('Exit Order Audit exit types', () => {
  it('labels every exit type: null and 0 are automatic exits, never "0" or an empty cell', async () => {
    answer('exit', [row(1, { exitType: null }), row(2, { exitType: 0 }), row(3, { exitType: 1 }), row(4, { exitType: 2 })]);
    const view = renderWithAdmin(<ExitAuditList />, { path: '/activity/exit', accountType: AccountType.Employee });
    expect(await screen.findByText('message 4')).toBeInTheDocument();
    await view.settled();
    const typeOf = (message: string) => {
      const cells = within(screen.getByText(message).closest('tr')!).getAllByRole('cell');
      return cells[6]!.textContent;
    };
    expect(['message 1', 'message 2', 'message 3', 'message 4'].map(typeOf)).toEqual([
      'Automatic (Signal, TP/SL)',
      'Automatic (Signal, TP/SL)',
      'Manual (Admin)',
      'Manual (Customer)',
    ]);
    expect(screen.getByText('Errors(1)')).toBeInTheDocument();
  });

  it('lets the automatic exits be chosen in the exit-type filter, and asks the server for them (issue 28 item 10)', async () => {
    const bodies: unknown[] = [];
    answer('exit', [row(1, { exitType: null })]);
    server.use(
      http.post(apiUrl(auditRoutes.exitSearch.path), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(ok(auditRoutes.exitSearch, { data: [row(1, { exitType: null })], paging: { totalCount: 1, pageIndex: 0, pageSize: 50 } }));
      }),
    );
    const view = renderWithAdmin(<ExitAuditList />, { path: '/activity/exit', accountType: AccountType.Employee });
    await screen.findByText('message 1');
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Exit Type' }));
    await user.click(await screen.findByRole('option', { name: 'Automatic (Signal, TP/SL)' }));
    await waitFor(() => expect(view.location()).toBe('/activity/exit?exitType=3'));
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ filter: [{ name: 'exitType', value: 3 }] }));
  });
});
