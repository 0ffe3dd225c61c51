import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ws } from 'msw';
import { describe, expect, it } from 'vitest';
import { AccountType } from '../../contract/enums';
import { server } from '../test/msw';
import { renderWithAdmin } from '../test/render';
import { AppShell } from './AppLayout';
import { menuFor } from './menus';
import { NOTIFICATIONS_PATH } from '../../contract/api/audit';

const topLevel = () =>
  [...screen.getByRole('navigation').children].filter((item) => !item.classList.contains('MuiCollapse-root')).map((item) => item.textContent);

function renderLayout(accountType: AccountType, url = '/somewhere') {
  return renderWithAdmin(
    <AppShell>
      <p>page</p>
    </AppShell>,
    { path: '*', url, accountType },
  );
}

describe('side menu per role', () => {
  it('admin: links, Clientele & Staff, Activity Monitor with Webhook Settings', async () => {
    renderLayout(AccountType.Admin);
    expect(topLevel()).toEqual([
      'Dashboard',
      'Presetting Parameters',
      'Strategy Setting Record',
      'Order & Alert',
      'Approval Status (New Registration)',
      'Clientele & Staff',
      'Activity Monitor',
    ]);
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/admin/dashboard');
    expect(screen.getByRole('link', { name: 'Approval Status (New Registration)' })).toHaveAttribute('href', '/customers/approval');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Activity Monitor' }));
    expect(screen.getByRole('link', { name: 'Entry Audit' })).toHaveAttribute('href', '/activity/entry');
    expect(screen.getByRole('link', { name: 'Exit Audit' })).toHaveAttribute('href', '/activity/exit');
    expect(screen.getByRole('link', { name: 'Account Health Check' })).toHaveAttribute('href', '/activity/account');
    expect(screen.getByRole('link', { name: 'Webhook Settings' })).toHaveAttribute('href', '/activity/webhook');
    await user.click(screen.getByRole('button', { name: 'Clientele & Staff' }));
    expect(screen.getByRole('link', { name: 'Agent List' })).toHaveAttribute('href', '/agents');
    expect(screen.getByRole('link', { name: 'Employee List' })).toHaveAttribute('href', '/employees');
    expect(screen.getByRole('link', { name: 'Customer List' })).toHaveAttribute('href', '/customers');
    expect(screen.getByTestId('topbar-name')).toHaveTextContent('Ada Lovelace');
    expect(screen.getByTestId('topbar-role')).toHaveTextContent('Admin');
  });

  it('employee: no presetting parameters and no Webhook Settings', async () => {
    renderLayout(AccountType.Employee);
    expect(topLevel()).toEqual(['Dashboard', 'Strategy Setting Record', 'Order & Alert', 'Approval Status (New Registration)', 'Clientele & Staff', 'Activity Monitor']);
    expect(screen.getByRole('link', { name: 'Strategy Setting Record' })).toHaveAttribute('href', '/employee/strategies');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Activity Monitor' }));
    expect(screen.getByRole('link', { name: 'Account Health Check' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Webhook Settings' })).not.toBeInTheDocument();
  });

  it('agent and customer menus', () => {
    const agent = renderLayout(AccountType.Agent);
    expect(topLevel()).toEqual(['Dashboard', 'Registration ID', 'Customer List']);
    expect(screen.getByRole('link', { name: 'Registration ID' })).toHaveAttribute('href', '/agent/registrationids');
    expect(screen.getByRole('link', { name: 'Customer List' })).toHaveAttribute('href', '/agent/customers');
    agent.unmount();
    renderLayout(AccountType.Customer);
    // Issue 28 item 13: a customer gets back to the dashboard from the menu and from the logo.
    expect(topLevel()).toEqual(['Dashboard', 'Presetting Parameters', 'Strategy Setting Record', 'Order & Alert']);
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/customer/dashboard');
    expect(screen.getByRole('link', { name: 'Order & Alert' })).toHaveAttribute('href', '/customer/orders');
    expect(screen.getByRole('link', { name: 'Home: your dashboard' })).toHaveAttribute('href', '/customer/dashboard');
  });

  it('the logo leads every role to its own dashboard', () => {
    renderLayout(AccountType.Employee);
    expect(screen.getByRole('link', { name: 'Home: your dashboard' })).toHaveAttribute('href', '/employee/dashboard');
  });

  it('any other role has an empty menu', () => {
    expect(menuFor(9)).toEqual([]);
    expect(menuFor(undefined)).toEqual([]);
  });

  it('highlights the current route, opening its group; groups collapse on click', async () => {
    renderLayout(AccountType.Admin, '/customers/approval/12');
    expect(screen.getByRole('link', { name: 'Approval Status (New Registration)' })).toHaveClass('Mui-selected');
    expect(screen.getByRole('link', { name: 'Dashboard' })).not.toHaveClass('Mui-selected');
    const other = renderLayout(AccountType.Admin, '/activity/exit');
    const nav = other.container.querySelector('nav')!;
    expect(within(nav).getByRole('link', { name: 'Exit Audit' })).toHaveClass('Mui-selected');
    await userEvent.setup().click(within(nav).getByRole('button', { name: 'Activity Monitor' }));
    await waitFor(() => expect(within(nav).queryByRole('link', { name: 'Exit Audit' })).not.toBeInTheDocument());
  });

  it('red dots: the notifications socket receives the token first, then type 1 flags Entry Audit and the group', async () => {
    const socket = ws.link(new URL(NOTIFICATIONS_PATH, window.location.origin.replace('http', 'ws')).toString());
    const received: string[] = [];
    let push: ((data: string) => void) | undefined;
    server.use(
      socket.addEventListener('connection', ({ client }) => {
        client.addEventListener('message', (event) => received.push(String(event.data)));
        push = (data) => client.send(data);
      }),
    );
    renderLayout(AccountType.Admin, '/activity/entry');
    await waitFor(() => expect(received).toEqual([JSON.stringify({ token: `token-${AccountType.Admin}` })]));
    expect(screen.queryAllByLabelText('New errors')).toHaveLength(0);
    act(() => push?.(JSON.stringify({ data: { type: 1 } })));
    await waitFor(() => expect(screen.getAllByLabelText('New errors')).toHaveLength(2));
    expect(within(screen.getByRole('link', { name: /Entry Audit/ })).getByLabelText('New errors')).toBeInTheDocument();
    expect(within(screen.getByRole('link', { name: /Exit Audit/ })).queryByLabelText('New errors')).not.toBeInTheDocument();
  });

  it('opens no socket for agents', async () => {
    const socket = ws.link(new URL(NOTIFICATIONS_PATH, window.location.origin.replace('http', 'ws')).toString());
    let connections = 0;
    server.use(socket.addEventListener('connection', () => (connections += 1)));
    renderLayout(AccountType.Agent);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connections).toBe(0);
  });
});
