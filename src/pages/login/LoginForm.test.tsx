import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { accountRoutes } from '../../../contract/api/account';
import { AccountType } from '../../../contract/enums';
import { server as serverMessages } from '../../../contract/messages';
import { apiUrl, failed, ok, server } from '../../test/msw';
import { renderPublic } from '../../test/renderPublic';
import { LoginForm, type LoginVariant } from './LoginForm';

function answerLogin(accountType: AccountType) {
  const bodies: unknown[] = [];
  server.use(
    http.post(apiUrl(accountRoutes.login.path), async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(ok(accountRoutes.login, { requires2FA: true, accountId: 41, accountType, email: 'sam@example.com' }));
    }),
  );
  return bodies;
}

async function signIn(variant: LoginVariant) {
  const view = renderPublic(<LoginForm variant={variant} />, { path: '/admin/login' });
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'sam@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret password');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return { view, user };
}

describe('<LoginForm>', () => {
  it('asks for both fields', async () => {
    renderPublic(<LoginForm variant="customer" />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all required fields.');
  });

  it('opens the 2FA modal, verifies the six digits, stores the cookie and lands on the account type page', async () => {
    const logins = answerLogin(AccountType.Employee);
    const verifications: unknown[] = [];
    server.use(
      http.post(apiUrl(accountRoutes.verifyEmail.path), async ({ request }) => {
        verifications.push(await request.json());
        return HttpResponse.json(
          ok(accountRoutes.verifyEmail, { accessToken: { value: 'tok-123', expiresAt: '2026-12-01T00:00:00.000Z' }, accountId: 41, accountType: AccountType.Employee }),
        );
      }),
    );
    const { view, user } = await signIn('staff');
    expect(logins).toEqual([{ email: 'sam@example.com', password: 'secret password', portal: 'staff' }]);
    expect(await screen.findByRole('dialog', { name: 'Verification code' })).toHaveTextContent('We sent a 6-digit code to sam@example.com');
    await user.click(screen.getByLabelText('Digit 1 of 6'));
    await user.keyboard('123456');
    await waitFor(() => expect(view.location()).toBe('/employee/dashboard'));
    expect(verifications).toEqual([{ accountId: 41, code: '123456' }]);
    expect(Cookies.get('accessToken')).toBe('tok-123');
  });

  it('shows the server message of a wrong code and clears the boxes', async () => {
    answerLogin(AccountType.Admin);
    server.use(http.post(apiUrl(accountRoutes.verifyEmail.path), () => HttpResponse.json(failed(serverMessages.invalidCode), { status: 400 })));
    const { view, user } = await signIn('staff');
    await screen.findByRole('dialog', { name: 'Verification code' });
    await user.click(screen.getByLabelText('Digit 1 of 6'));
    await user.keyboard('000000');
    expect(await screen.findByText(serverMessages.invalidCode)).toBeInTheDocument();
    expect((screen.getByLabelText('Digit 1 of 6') as HTMLInputElement).value).toBe('');
    expect(view.location()).toBe('/admin/login');
    expect(Cookies.get('accessToken')).toBeUndefined();
  });

  it('offers Register on the customer sign-in only, never on the staff sign-in (issue 10)', () => {
    const customer = renderPublic(<LoginForm variant="customer" />, { path: '/auth/login' });
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/auth/register');
    customer.unmount();
    renderPublic(<LoginForm variant="staff" />, { path: '/admin/login' });
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Register' })).not.toBeInTheDocument();
  });

  it('refuses a customer on the staff login', async () => {
    answerLogin(AccountType.Customer);
    await signIn('staff');
    expect(await screen.findByRole('alert')).toHaveTextContent('Access restricted to admins only.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens the inactive modal on a 403', async () => {
    server.use(http.post(apiUrl(accountRoutes.login.path), () => HttpResponse.json(failed(serverMessages.inactive), { status: 403 })));
    const { user } = await signIn('customer');
    const dialog = await screen.findByRole('dialog', { name: 'Account inactive' });
    expect(dialog).toHaveTextContent('Your account is currently inactive. Please contact support for assistance.');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the message of a refused login', async () => {
    server.use(http.post(apiUrl(accountRoutes.login.path), () => HttpResponse.json(failed(serverMessages.invalidCredentials), { status: 401 })));
    await signIn('customer');
    expect(await screen.findByRole('alert')).toHaveTextContent(serverMessages.invalidCredentials);
  });

  it('asks for the code for new devices once the account is at its hourly cap, and sends it with the password', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl(accountRoutes.login.path), async ({ request }) => {
        const body = (await request.json()) as { deviceCode?: string };
        bodies.push(body);
        if (!body.deviceCode) return HttpResponse.json(failed(serverMessages.signInCapped), { status: 429 });
        return HttpResponse.json(ok(accountRoutes.login, { requires2FA: true, accountId: 41, accountType: AccountType.Agent, email: 'sam@example.com' }));
      }),
    );
    expect(screen.queryByLabelText('Code for new devices (from the email)')).not.toBeInTheDocument();
    const { user } = await signIn('customer');
    expect(await screen.findByRole('alert')).toHaveTextContent(serverMessages.signInCapped);
    await user.type(screen.getByLabelText('Code for new devices (from the email)'), 'ABCDE FGHJK');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('dialog', { name: 'Verification code' })).toBeInTheDocument();
    expect(bodies).toEqual([
      { email: 'sam@example.com', password: 'secret password', portal: 'customer' },
      { email: 'sam@example.com', password: 'secret password', portal: 'customer', deviceCode: 'ABCDE FGHJK' },
    ]);
  });
});
