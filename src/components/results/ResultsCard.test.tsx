import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { resultsRoutes } from '../../../contract/api/results';
import { AccountType, EntryDirection } from '../../../contract/enums';
import { apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { ResultsCard } from './ResultsCard';

describe("a customer's results", () => {
  it('shows the realized PnL to date and each open position with its stop loss and take-profits', async () => {
    server.use(
      http.get(apiUrl('/api/customer/5/results'), () =>
        HttpResponse.json(
          ok(resultsRoutes.customer, {
            days: [
              { day: '2026-11-27', realizedPnl: 12.5, cumulative: 12.5, wallet: 1012.5 },
              { day: '2026-11-28', realizedPnl: -2.25, cumulative: 10.25, wallet: 1010.25 },
            ],
            openPositions: [
              { executionId: 9, orderId: 4, strategyId: 'BTC-TREND', symbol: 'BTCUSDT', side: EntryDirection.Long, quantity: 0.01, entryPrice: 60000, stopLoss: 58800, takeProfits: [60900, 61800], openedAt: '2026-11-29T10:00:00.000Z' },
            ],
          }),
        ),
      ),
    );
    renderWithAdmin(<ResultsCard customerId={5} />, { accountType: AccountType.Customer });
    const card = await screen.findByTestId('customer-results');
    await within(card).findByText('10.25 USDT');
    const rows = within(await within(card).findByRole('table', { name: 'Open positions' })).getAllByRole('row');
    expect(rows[1]!.textContent).toBe('BTCUSDTLong0.01600005880060900 / 61800');
  });

  it('says when nothing is open', async () => {
    renderWithAdmin(<ResultsCard customerId={6} />, { accountType: AccountType.Customer });
    await screen.findByText('No open position.');
  });
});
