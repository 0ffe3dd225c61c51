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
        return HttpResponse.json(ok(switchRoutes.setStrategy, { paused: true, pausedAt: PAUSED_AT }));
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

  it('shows an employee the state with the control disabled', async () => {
    server.use(http.get(apiUrl('/api/platform/pause'), () => HttpResponse.json(ok(switchRoutes.platformState, { paused: true, pausedAt: PAUSED_AT }))));
    renderWithAdmin(<PauseSwitchCard target={{ scope: 'platform' }} />, { accountType: AccountType.Employee });
    await screen.findByText(/^Paused since /);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Resume platform' })).toBeDisabled());
  });
});
