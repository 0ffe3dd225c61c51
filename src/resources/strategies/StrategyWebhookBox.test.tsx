import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { AccountType } from '../../../contract/enums';
import { strategyRoutes } from '../../../contract/api/strategy';
import { ui } from '../../../contract/messages';
import { apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { COPY_NOTICE_MS, StrategyWebhookBox } from './StrategyWebhookBox';

describe('webhook box', () => {
  it('asks to save first when there is no webhook', () => {
    renderWithAdmin(<StrategyWebhookBox webhookUrl={undefined} hasWebhook={false} />, { accountType: AccountType.Admin });
    expect(screen.getByText(ui.strategy.saveBeforeWebhook)).toBeInTheDocument();
  });

  it('tells an employee that a webhook exists without showing its URL (the server sends it to admins only)', () => {
    renderWithAdmin(<StrategyWebhookBox webhookUrl={undefined} hasWebhook />, { accountType: AccountType.Employee });
    expect(screen.getByText('This strategy has a webhook. Only admins can see its URL.')).toBeInTheDocument();
    expect(screen.queryByText(ui.strategy.saveBeforeWebhook)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy' })).not.toBeInTheDocument();
  });

  it("copies the URL and shows 'Copy success!' for one second", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderWithAdmin(<StrategyWebhookBox webhookUrl="http://x/api/webhook/abc" hasWebhook />, { accountType: AccountType.Admin });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith('http://x/api/webhook/abc');
    expect(screen.getByText(ui.strategy.copySuccess)).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(COPY_NOTICE_MS - 100);
    });
    expect(screen.getByText(ui.strategy.copySuccess)).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    // The closing transition runs after the hide.
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryByText(ui.strategy.copySuccess)).not.toBeInTheDocument();
    vi.useRealTimers();
  });

  it('lets an admin rotate the URL after confirming: the new URL replaces the old one in the box (issue 28 item 12)', async () => {
    const rotations: string[] = [];
    server.use(
      http.post(apiUrl('/api/strategy/BTC001/webhook/rotate'), () => {
        rotations.push('BTC001');
        return HttpResponse.json(ok(strategyRoutes.rotateWebhook, { id: 'BTC001', webhookUrl: 'http://x/api/webhook/new' }));
      }),
    );
    const view = renderWithAdmin(<StrategyWebhookBox strategyId="BTC001" webhookUrl="http://x/api/webhook/old" hasWebhook />, { accountType: AccountType.Admin });
    await view.settled();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Rotate' }));
    const question = await screen.findByRole('dialog', { name: 'Rotate the webhook URL?' });
    expect(rotations).toEqual([]);
    await user.click(within(question).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent(ui.strategy.webhookSet);
    expect(rotations).toEqual(['BTC001']);
    expect(screen.getByTestId('webhook-url')).toHaveValue('http://x/api/webhook/new');
  });

  it('shows Rotate disabled to an employee', async () => {
    const view = renderWithAdmin(<StrategyWebhookBox strategyId="BTC001" webhookUrl="http://x/api/webhook/old" hasWebhook />, { accountType: AccountType.Employee });
    await view.settled();
    expect(screen.getByRole('button', { name: 'Rotate' })).toBeDisabled();
  });
});
