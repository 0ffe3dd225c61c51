import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiUrl, failed, ok, server } from '../../test/msw';
import { renderPublic } from '../../test/renderPublic';
import { ConnectPage } from './ConnectPage';
import { ExchangeSuccessPage } from './ExchangeSuccessPage';
import { publicRoutes } from '../../authProvider/publicRoutes';

afterEach(() => vi.unstubAllGlobals());

const options = () => within(screen.getByRole('listbox')).getAllByRole('option');

describe('/auth/connect', () => {
  it('goes back to /auth/register without a temporary account id', () => {
    const view = renderPublic(<ConnectPage />, { path: '/auth/connect', url: '/auth/connect' });
    expect(view.location()).toBe('/auth/register');
  });

  it('lists the exchanges with logos; disabled ones are Coming soon; a search with no match says No results found; a click outside closes', async () => {
    renderPublic(<ConnectPage />, { path: '/auth/connect', url: '/auth/connect?tempAccountId=t1' });
    expect(screen.getByRole('heading', { name: 'Connect Your Exchange' })).toBeInTheDocument();
    expect(screen.getByText('Connect Exchange', { selector: '.MuiStepLabel-label' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect Exchange' })).toBeDisabled();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Select exchange' }));
    expect(options().map((option) => option.textContent)).toEqual(['BitgetQuick Connect', 'BybitQuick Connect', 'BinanceComing soon', 'OKXComing soon']);
    expect(within(options()[0]!).getByRole('img', { name: 'Bitget logo' })).toBeInTheDocument();
    expect(options()[2]).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Select exchange' }), 'kraken');
    expect(within(screen.getByRole('listbox')).getByText('No results found')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Quick connect in three steps'));
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(screen.getByText('Quick connect automatically creates encrypted, IP-restricted API keys for you.')).toBeInTheDocument();
    expect(screen.getByText('Why are API keys needed?')).toBeInTheDocument();
  });

  it('confirms in the modal and navigates to the URL the server answers', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, origin: window.location.origin, assign });
    server.use(
      http.get(apiUrl('/api/security/bybit/oauth/t1'), () => HttpResponse.json(ok(publicRoutes.oauthStart, { url: 'http://127.0.0.1/sandbox/bybit/authorize?x=1' }))),
    );
    renderPublic(<ConnectPage />, { path: '/auth/connect', url: '/auth/connect?tempAccountId=t1' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Select exchange' }));
    await user.click(screen.getByRole('option', { name: /Bybit/ }));
    await user.click(screen.getByRole('button', { name: 'Connect Exchange' }));
    const modal = screen.getByRole('dialog', { name: 'Connect Bybit' });
    expect(modal).toHaveTextContent('Authorise third-party data access so they can provide you with services.');
    expect(modal).toHaveTextContent('Quick API');
    expect(within(modal).getByRole('img', { name: 'Bybit logo' })).toBeInTheDocument();
    await user.click(within(modal).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://127.0.0.1/sandbox/bybit/authorize?x=1'));
  });

  it('shows the server message when quick connect cannot start', async () => {
    server.use(http.get(apiUrl('/api/security/bitget/oauth/t1'), () => HttpResponse.json(failed('This registration has expired'), { status: 404 })));
    renderPublic(<ConnectPage />, { path: '/auth/connect', url: '/auth/connect?tempAccountId=t1' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Select exchange' }));
    await user.click(screen.getByRole('option', { name: /Bitget/ }));
    await user.click(screen.getByRole('button', { name: 'Connect Exchange' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This registration has expired');
  });
});

describe('/auth/exchange/success', () => {
  it('stores the token cookie and opens the customer dashboard with success=True', async () => {
    const view = renderPublic(<ExchangeSuccessPage />, { path: '/auth/exchange/success', url: '/auth/exchange/success?platformType=2&accessToken=tok9' });
    await waitFor(() => expect(view.location()).toBe('/customer/dashboard?success=True&platformType=2'));
    expect(Cookies.get('accessToken')).toBe('tok9');
  });

  it('goes to /auth/register without a token', async () => {
    const view = renderPublic(<ExchangeSuccessPage />, { path: '/auth/exchange/success', url: '/auth/exchange/success?platformType=2' });
    await waitFor(() => expect(view.location()).toBe('/auth/register'));
    expect(Cookies.get('accessToken')).toBeUndefined();
  });
});
