import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { qualityRoutes } from '../../../contract/api/quality';
import { AccountType } from '../../../contract/enums';
import { renderWithAdmin } from '../../test/render';
import { apiUrl, ok, server } from '../../test/msw';
import { ExecutionQualityCard } from './ExecutionQualityCard';
import { OrderQualityButton } from './OrderQualityButton';
import { qualityCsv } from './qualityCsv';

const summary = {
  days: 30, executions: 40, filled: 38, fillRate: 0.95, p50AckMs: 120, p95AckMs: 480, p50FillMs: 180, p95FillMs: 900,
  meanSlippageBps: 3.25, p95SlippageBps: 11.5, skipped: [{ reason: 'customer paused', count: 2 }], daily: [],
};
const copy = {
  executionId: 7, orderId: 12, customerId: 3, customerName: 'Ann Lee', platformType: 2, state: 'open', alertAt: '2026-11-29T10:00:00.000Z',
  sentMs: 35, ackMs: 60, fillMs: 95, entryPrice: 60012.5, slippageVsAlertBps: 2.08, slippageVsFirstFillBps: 0,
};

describe('execution quality', () => {
  it("shows a strategy's figures and skips by reason as the server answers them", async () => {
    server.use(http.get(apiUrl('/api/strategy/BTC001/quality'), () => HttpResponse.json(ok(qualityRoutes.strategy, summary))));
    renderWithAdmin(<ExecutionQualityCard strategyId="BTC001" />, { accountType: AccountType.Employee });
    const card = await screen.findByTestId('execution-quality');
    await within(card).findByText('95.0 %');
    expect(within(card).getByText('120 ms / 480 ms')).toBeInTheDocument();
    expect(within(card).getByText('3.3 bp / 11.5 bp')).toBeInTheDocument();
    expect(within(card).getByText(/customer paused 2/)).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Export copies (CSV)' })).toBeEnabled();
  });

  it("opens an order's copies with their latencies and slippage", async () => {
    server.use(http.get(apiUrl('/api/order/12/quality'), () => HttpResponse.json(ok(qualityRoutes.order, [copy]))));
    renderWithAdmin(<OrderQualityButton orderId={12} />, { accountType: AccountType.Admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Quality' }));
    const table = await screen.findByRole('table', { name: 'Copies of order 12' });
    await waitFor(() => expect(within(table).getByText('Ann Lee')).toBeInTheDocument());
    expect(within(table).getAllByRole('row')[1]!.textContent).toBe('Ann Leeopen35609560012.52.080');
  });

  it('exports the copies as CSV with a header of the field names, quoting what needs it', () => {
    expect(qualityCsv([{ ...copy, customerName: 'Lee, "Ann"' }]).split('\n')).toEqual([
      'orderId,executionId,customerId,customerName,platformType,state,alertAt,sentMs,ackMs,fillMs,entryPrice,slippageVsAlertBps,slippageVsFirstFillBps',
      '12,7,3,"Lee, ""Ann""",2,open,2026-11-29T10:00:00.000Z,35,60,95,60012.5,2.08,0',
    ]);
  });
});
