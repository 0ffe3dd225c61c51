import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { accountRoutes } from '../../../contract/api/account';
import { server as serverMessages } from '../../../contract/messages';
import { apiUrl, failed, ok, server } from '../../test/msw';
import { renderPublic } from '../../test/renderPublic';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';

describe('forgot password', () => {
  it('email, then code and new password, then Password Updated !', async () => {
    const calls: unknown[] = [];
    server.use(
      http.post(apiUrl(accountRoutes.forgotPassword.path), async ({ request }) => {
        calls.push(await request.json());
        return HttpResponse.json(ok(accountRoutes.forgotPassword, { email: 'sam@example.com', accountId: 'opaque-reset-ticket-5' }));
      }),
      http.post(apiUrl(accountRoutes.verifyPassword.path), async ({ request }) => {
        calls.push(await request.json());
        return HttpResponse.json(ok(accountRoutes.verifyPassword, { success: true }));
      }),
    );
    renderPublic(<ForgotPasswordDialog open variant="staff" onClose={vi.fn()} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter email');
    await user.type(screen.getByLabelText('Email'), 'sam@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    // Issue 28 item 15: the reset code has the six boxes of the sign-in code.
    expect(await screen.findByRole('group', { name: 'Verification code' })).toBeInTheDocument();
    expect(screen.getAllByLabelText(/^Digit \d of 6$/)).toHaveLength(6);
    const submit = screen.getByRole('button', { name: 'Update password' });
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('New password'), 'new password 1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new password 2');
    expect(submit).toBeEnabled();
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('All fields are required');
    await user.click(screen.getByLabelText('Digit 1 of 6'));
    await user.keyboard('12a3456');
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords didn`t match');
    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'new password 1');
    await user.click(submit);
    expect(await screen.findByText('Password Updated !')).toBeInTheDocument();
    expect(calls).toEqual([{ email: 'sam@example.com' }, { accountId: 'opaque-reset-ticket-5', code: '123456', password: 'new password 1' }]);
  });

  it("shows the server's refusal of the code", async () => {
    server.use(
      http.post(apiUrl(accountRoutes.forgotPassword.path), () => HttpResponse.json(ok(accountRoutes.forgotPassword, { email: 'a@example.com', accountId: 'opaque-reset-ticket-5' }))),
      http.post(apiUrl(accountRoutes.verifyPassword.path), () => HttpResponse.json(failed(serverMessages.invalidCode), { status: 400 })),
    );
    renderPublic(<ForgotPasswordDialog open variant="staff" onClose={vi.fn()} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'a@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await user.click(await screen.findByLabelText('Digit 1 of 6'));
    await user.keyboard('111111');
    await user.type(screen.getByLabelText('New password'), 'whatever 12');
    await user.type(screen.getByLabelText('Confirm new password'), 'whatever 12');
    await user.click(screen.getByRole('button', { name: 'Update password' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(serverMessages.invalidCode));
  });

  it('the customer variant tells them to ask their agent and links to registration', async () => {
    renderPublic(<ForgotPasswordDialog open variant="customer" onClose={vi.fn()} />);
    expect(screen.getByText('Customer passwords are reset by your agent. Please ask your agent for a password reset.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/auth/register');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Staff member? Reset by email' }));
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
  });
});
