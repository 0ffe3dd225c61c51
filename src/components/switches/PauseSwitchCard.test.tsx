import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { switchRoutes } from '../../../contract/api/switches';
import { AccountType } from '../../../contract/enums';
import { apiUrl, failed, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { PauseSwitchCard } from './PauseSwitchCard';

const PAUSED_AT = '2026-11-28T09:30:00.000Z';

/** Clicks the card's button once the state is read and the role is known (it is disabled until then). */
async function clickWhenEnabled(name: string) {
  const button = await screen.findByRole('button', { name });
  await waitFor(() => expect(button).toBeEnabled());
  fireEvent.click(button);
}

describe('kill switch card', () => {
  it('pauses a strategy after the confirmation, sends paused: true and shows the state the server answered', async () => {
    const sent: unknown[] = [];
    server.use(
      http.put(apiUrl('/api/strategy/BTC001/pause'), async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(ok(switchRoutes.setStrategy, { paused: true, pausedAt: PAUSED_AT, reason: null, resumeAt: null }));
      }),
    );
    renderWithAdmin(<PauseSwitchCard target={{ scope: 'strategy', id: 'BTC001' }} />, { accountType: AccountType.Admin });
    await clickWhenEnabled('Pause strategy');
    const dialog = await screen.findByRole('dialog', { name: 'Pause strategy' });
    expect(sent).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Paused.');
    expect(sent).toEqual([{ paused: true }]);
    expect(screen.getByText(/^Paused since /)).toBeInTheDocument();
  });

  it("shows the server's refusal and keeps the state", async () => {
    server.use(http.put(apiUrl('/api/customer/12/pause'), () => HttpResponse.json(failed('Customer not found'), { status: 404 })));
    renderWithAdmin(<PauseSwitchCard target={{ scope: 'customer', id: 12 }} />, { accountType: AccountType.Admin });
    await clickWhenEnabled('Pause copying');
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Pause copying' })).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Customer not found');
    expect(screen.getByText('Running')).toBeInTheDocument();
  });

  it("says why a loss guard paused a customer's copying and when it ends", async () => {
    const reason = 'Maximum drawdown reached: equity 85000.00 USDT is 15.0 % below its high of 100000.00 USDT, limit 10 %';
    server.use(http.get(apiUrl('/api/customer/12/pause'), () => HttpResponse.json(ok(switchRoutes.customerState, { paused: true, pausedAt: PAUSED_AT, reason, resumeAt: null }))));
    renderWithAdmin(<PauseSwitchCard target={{ scope: 'customer', id: 12 }} />, { accountType: AccountType.Employee });
    const notice = await screen.findByTestId('pause-notice');
    expect(notice.textContent).toBe(`${reason}. Stays paused until an admin resumes it.`);
  });

  it('shows an employee the state with the controls disabled', async () => {
    server.use(http.get(apiUrl('/api/platform/pause'), () => HttpResponse.json(ok(switchRoutes.platformState, { paused: true, pausedAt: PAUSED_AT, reason: null, resumeAt: null }))));
    renderWithAdmin(<PauseSwitchCard target={{ scope: 'platform' }} />, { accountType: AccountType.Employee });
    await screen.findByText(/^Paused since /);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Resume platform' })).toBeDisabled());
    expect(screen.getByRole('button', { name: 'Close all positions' })).toBeDisabled();
  });
});

describe('close all on the kill switch card', () => {
  const run = { id: 7, scope: 'strategy' as const, requestedAt: PAUSED_AT, positions: 2, closed: 0, protected: 2 };

  it('asks for confirmation, sends nothing before it, then follows the progress until every position is closed', async () => {
    let asked = 0;
    let last: typeof run | null = null;
    server.use(
      http.post(apiUrl('/api/strategy/BTC001/close-all'), () => {
        asked += 1;
        last = run;
        return HttpResponse.json(ok(switchRoutes.closeAllStrategy, run));
      }),
      http.get(apiUrl('/api/strategy/BTC001/close-all'), () => HttpResponse.json(ok(switchRoutes.strategyCloseAllState, { last }))),
    );
    renderWithAdmin(<PauseSwitchCard target={{ scope: 'strategy', id: 'BTC001' }} />, { accountType: AccountType.Admin });
    await clickWhenEnabled('Close all positions');
    const dialog = await screen.findByRole('dialog', { name: 'Close all positions' });
    expect(within(dialog).getByText(/Close every open position of this strategy at market/)).toBeInTheDocument();
    expect(asked).toBe(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Closing 2 positions.');
    expect(asked).toBe(1);
    expect(screen.getByTestId('close-all-progress-strategy')).toHaveTextContent(/: 0 of 2 closed, the rest still protected\.$/);
    last = { ...run, closed: 2, protected: 0 };
    await waitFor(() => expect(screen.getByTestId('close-all-progress-strategy')).toHaveTextContent(/: all 2 positions are closed\.$/), { timeout: 10_000 });
  });

  it('says so when some of the rest are not protected yet, and when there was nothing to close', async () => {
    server.use(
      http.get(apiUrl('/api/customer/12/close-all'), () =>
        HttpResponse.json(ok(switchRoutes.customerCloseAllState, { last: { ...run, scope: 'customer', positions: 3, closed: 1, protected: 1 } })),
      ),
      http.get(apiUrl('/api/platform/close-all'), () => HttpResponse.json(ok(switchRoutes.platformCloseAllState, { last: { ...run, scope: 'platform', positions: 0, protected: 0 } }))),
    );
    renderWithAdmin(
      <>
        <PauseSwitchCard target={{ scope: 'customer', id: 12 }} />
        <PauseSwitchCard target={{ scope: 'platform' }} />
      </>,
      { accountType: AccountType.Admin },
    );
    expect(await screen.findByTestId('close-all-progress-customer')).toHaveTextContent(/: 1 of 3 closed; 1 of the rest protected so far\.$/);
    expect(await screen.findByTestId('close-all-progress-platform')).toHaveTextContent(/: no open position to close\.$/);
  });
});
