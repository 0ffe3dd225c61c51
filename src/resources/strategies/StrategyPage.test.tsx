import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { reloadAt } from '../../components/reloadPage';
import { customerRoutes } from '../../../contract/api/customer';
import { strategyRoutes, type Strategy } from '../../../contract/api/strategy';
import { AccountType } from '../../../contract/enums';
import { ui, validation } from '../../../contract/messages';
import { apiUrl, ok, server } from '../../test/msw';
import { renderWithAdmin } from '../../test/render';
import { StrategyCreate } from './StrategyCreate';
import { StrategyEdit } from './StrategyEdit';

const saved: Strategy = {
  id: 'BTC001',
  symbol: 'BTCUSDT',
  groups: [{ group: 1, investAmount: { type: 1, amount: 100 } }],
  entryDirection: 1,
  leverage: 50,
  positionMode: 1,
  takeProfitType: 3,
  takeProfitMode: 1,
  tp1: { targetLevel: 2, closeVolume: 100 },
  tp2: { targetLevel: null, closeVolume: 0 },
  tp3: { targetLevel: null, closeVolume: 0 },
  stopLoss: { type: 3, amount: 1 },
  advanceStopLoss: false,
  trailingStop: false,
  positionActivation: { type: null, amount: null },
  positionClose: { type: null, amount: null },
  status: 1,
  exclusiveCustomerId: null,
  exclusiveCustomer: null,
  webhookUrl: 'http://localhost/api/webhook/abc123',
  hasWebhook: true,
  win: 0,
  loss: 0,
  datetimeInserted: '2025-03-01T00:00:00.000Z',
  datetimeUpdated: '2025-03-01T00:00:00.000Z',
};

vi.mock('../../components/reloadPage', () => ({ reloadAt: vi.fn() }));

function noExclusiveSearch() {
  server.use(http.post(apiUrl(customerRoutes.searchExclusive.path), () => HttpResponse.json(ok(customerRoutes.searchExclusive, { data: [], paging: { totalCount: 0, pageIndex: 0, pageSize: 100 } }))));
}

describe('Presetting Parameters', () => {
  it('shows every required-field message and the failure popup on an empty save', async () => {
    renderWithAdmin(<StrategyCreate />, { path: '/admin/parameters/preset', accountType: AccountType.Admin });
    await screen.findByLabelText('Symbol/Token');
    const user = userEvent.setup();
    expect(screen.getByText(ui.strategy.saveBeforeWebhook)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Open Long' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Open Short' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const popup = await screen.findByRole('dialog');
    expect(within(popup).getByText(ui.strategy.settingFailedDetail)).toBeInTheDocument();
    await user.click(within(popup).getByRole('button', { name: 'Closed' }));
    expect(await screen.findByText(validation.symbolRequired)).toBeInTheDocument();
    for (const message of [validation.symbolRequired, validation.strategyIdRequired, validation.leverageRequired, validation.selectOption, validation.takeProfitRequired, validation.stopLossRequired]) {
      expect(screen.getByText(message)).toBeInTheDocument();
    }
    await user.type(screen.getByLabelText('Symbol/Token'), 'ETHUSDT');
    expect(screen.queryByText(validation.symbolRequired)).not.toBeInTheDocument();
  });

  it('applies the trailing-stop dependencies', async () => {
    renderWithAdmin(<StrategyCreate />, { path: '/admin/parameters/preset', accountType: AccountType.Admin });
    await screen.findByLabelText('Symbol/Token');
    const user = userEvent.setup();
    expect(screen.getByLabelText('Position Activation ($)')).toBeDisabled();
    await user.click(screen.getByLabelText('Trailing Stop'));
    expect(screen.getByLabelText('Position Activation ($)')).toBeEnabled();
    await user.type(screen.getByLabelText('Position Activation ($)'), '5');
    expect(screen.getByLabelText('Position Activation (%)')).toBeDisabled();
    await user.type(screen.getByLabelText('Position Close (%)'), '12');
    await user.click(screen.getByLabelText('Trailing Stop'));
    expect(screen.getByLabelText('Position Activation ($)')).toHaveValue('');
    // A number box (step 0.01): empty reads as null.
    expect(screen.getByLabelText('Position Close (%)')).toHaveValue(null);

  });

  it('applies the take-profit dependencies: Full clears, Partial computes TP3', async () => {
    renderWithAdmin(<StrategyCreate />, { path: '/admin/parameters/preset', accountType: AccountType.Admin });
    await screen.findByLabelText('Symbol/Token');
    const user = userEvent.setup();
    expect(screen.getByLabelText('TP2 Target Level')).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Partial' }));
    await user.type(screen.getByLabelText('TP1 Close Volume (%)'), '70');
    await user.type(screen.getByLabelText('TP2 Close Volume (%)'), '40');
    expect(screen.getByText(validation.enterCorrectValues)).toBeInTheDocument();
    await user.clear(screen.getByLabelText('TP2 Close Volume (%)'));
    await user.type(screen.getByLabelText('TP2 Close Volume (%)'), '10');
    expect(screen.getByLabelText('TP3 Close Volume (%)')).toHaveValue('20');
    await user.click(screen.getByRole('button', { name: 'Full' }));
    expect(screen.getByLabelText('TP1 Close Volume (%)')).toHaveValue('100');
    expect(screen.getByLabelText('TP2 Close Volume (%)')).toHaveValue('0');

  });

  it('offers Exclusive only with Internal', async () => {
    renderWithAdmin(<StrategyCreate />, { path: '/admin/parameters/preset', accountType: AccountType.Admin });
    noExclusiveSearch();
    await screen.findByLabelText('Symbol/Token');
    const user = userEvent.setup();
    expect(screen.getByRole('checkbox', { name: 'Exclusive' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Internal' }));
    await user.click(screen.getByRole('checkbox', { name: 'Exclusive' }));
    expect(screen.getByLabelText('Exclusive Customer')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Internal' }));
    expect(screen.getByRole('checkbox', { name: 'Exclusive' })).not.toBeChecked();
    expect(screen.queryByLabelText('Exclusive Customer')).not.toBeInTheDocument();
  });

  it('shows the trailing stop and group messages of spec 5', async () => {
    renderWithAdmin(<StrategyCreate />, { path: '/admin/parameters/preset', accountType: AccountType.Admin });
    await screen.findByLabelText('Symbol/Token');
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Vip' }));
    await user.click(screen.getByLabelText('Trailing Stop'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Closed' }));
    expect(await screen.findByText(validation.investRequired)).toBeInTheDocument();
    expect(screen.getByText(validation.activationRequired)).toBeInTheDocument();
    expect(screen.getByText(validation.positionCloseRequired)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Position Activation (%)'), '1');
    await user.type(screen.getByLabelText('Position Close (%)'), '11');
    expect(screen.getByText(validation.valueBetween)).toBeInTheDocument();
  });

  it('saves a complete form with the contract body and moves to /strategy/{id}', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl(strategyRoutes.create.path), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(ok(strategyRoutes.create, { id: 'BTC001', webhookUrl: saved.webhookUrl! }));
      }),
      // The data provider answers react-admin the saved strategy itself.
      http.get(apiUrl('/api/strategy/BTC001'), () => HttpResponse.json(ok(strategyRoutes.get, saved))),
    );
    const view = renderWithAdmin(<StrategyCreate />, { path: '/admin/parameters/preset', accountType: AccountType.Admin });
    await screen.findByLabelText('Symbol/Token');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Symbol/Token'), 'BTCUSDT');
    await user.type(screen.getByLabelText('Strategy ID'), 'BTC001');
    await user.type(screen.getByLabelText('Leverage'), '50');
    await user.click(screen.getByLabelText('Position Mode'));
    await user.click(await screen.findByRole('option', { name: 'One-Way Mode' }));
    await user.click(screen.getByRole('checkbox', { name: 'Gold' }));
    await user.type(screen.getByLabelText('Invest ($)'), '100');
    expect(screen.getByLabelText('Invest (Quantity)')).toBeDisabled();
    await user.type(screen.getByLabelText('TP1 Target Level'), '2');
    await user.type(screen.getByLabelText('Stop Loss'), '1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.location()).toBe('/strategy/BTC001'));
    expect(body).toMatchObject({
      id: 'BTC001',
      symbol: 'BTCUSDT',
      leverage: '50',
      positionMode: 1,
      groups: [{ group: 1, investAmount: { type: 1, amount: '100' } }],
      tp1: { targetLevel: '2', closeVolume: 100 },
      stopLoss: { type: 3, amount: '1' },
      trailingStop: false,
    });
  });

  it('is read-only for an employee, with the webhook URL and no trading or delete', async () => {
    server.use(http.get(apiUrl('/api/strategy/BTC001'), () => HttpResponse.json(ok(strategyRoutes.get, saved))));
    const view = renderWithAdmin(<StrategyEdit />, { path: '/strategy/:id', url: '/strategy/BTC001', accountType: AccountType.Employee });
    expect(await screen.findByTestId('webhook-url')).toHaveValue(saved.webhookUrl);
    await view.settled();
    expect(screen.getByLabelText('Symbol/Token')).toBeDisabled();
    expect(screen.getByLabelText('Stop Loss')).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Gold' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open Long' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('locks all but groups and stop loss for an admin once saved', async () => {
    server.use(http.get(apiUrl('/api/strategy/BTC001'), () => HttpResponse.json(ok(strategyRoutes.get, saved))));
    renderWithAdmin(<StrategyEdit />, { path: '/strategy/:id', url: '/strategy/BTC001', accountType: AccountType.Admin });
    expect(await screen.findByTestId('webhook-url')).toBeInTheDocument();
    expect(screen.getByLabelText('Symbol/Token')).toBeDisabled();
    expect(screen.getByLabelText('Stop Loss')).toBeEnabled();
    expect(screen.getByRole('checkbox', { name: 'Vip' })).toBeEnabled();
    expect(await screen.findByRole('button', { name: 'Open Long' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Update' })).toBeInTheDocument();
  });

  it('clearing an unsaved form says so, then goes to the preset path and reloads (spec 4)', async () => {
    renderWithAdmin(<StrategyCreate />, { path: '/admin/parameters/preset', accountType: AccountType.Admin });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Symbol/Token'), 'ETHUSDT');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    const popup = await screen.findByRole('dialog', { name: 'Success' });
    expect(popup).toHaveTextContent(ui.strategy.cleared);
    expect(screen.getByLabelText('Symbol/Token')).toHaveValue('');
    expect(reloadAt).not.toHaveBeenCalled();
    await user.click(within(popup).getByRole('button', { name: 'Closed' }));
    expect(reloadAt).toHaveBeenCalledWith('/admin/parameters/preset');
  });

  it('tells an employee on the preset path that only admins create strategies (issue 10)', async () => {
    renderWithAdmin(<StrategyCreate />, { path: '/employee/parameters/preset', accountType: AccountType.Employee });
    expect(await screen.findByText('Only admins create strategies. Open a strategy from the Strategy Setting Record to see its settings.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Symbol/Token')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('steps the position close by 0.01, from 0.01 to 10 (spec 9)', async () => {
    renderWithAdmin(<StrategyCreate />, { path: '/admin/parameters/preset', accountType: AccountType.Admin });
    const close = await screen.findByLabelText('Position Close (%)');
    expect(close).toHaveAttribute('type', 'number');
    expect(close).toHaveAttribute('step', '0.01');
    expect(close).toHaveAttribute('min', '0.01');
    expect(close).toHaveAttribute('max', '10');
    expect(screen.getByLabelText('Position Close ($)')).toHaveAttribute('step', '0.01');
  });
});
