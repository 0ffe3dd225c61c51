import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { accountRoutes } from '../../../contract/api/account';
import { countryRoutes, type Country } from '../../../contract/api/country';
import { server as serverMessages } from '../../../contract/messages';
import { apiUrl, failed, ok, server } from '../../test/msw';
import { renderPublic } from '../../test/renderPublic';
import { RegisterPage } from './RegisterPage';

const singapore: Country = { id: 3, name: 'Singapore', imageUrl: '/flags/sg.svg', countryCode: 'SG', dialCode: '+65' };

function answerCountries() {
  const searches: unknown[] = [];
  server.use(
    http.post(apiUrl(countryRoutes.search.path), async ({ request }) => {
      searches.push(await request.json());
      return HttpResponse.json(ok(countryRoutes.search, { data: [singapore], paging: { totalCount: 1, pageIndex: 0, pageSize: 32 } }));
    }),
  );
  return searches;
}

async function passStepOne(user: ReturnType<typeof userEvent.setup>) {
  server.use(
    http.post(apiUrl(accountRoutes.verifyRegistrationId.path), () =>
      HttpResponse.json(ok(accountRoutes.verifyRegistrationId, { registrationId: 'REG-1', valid: true })),
    ),
  );
  await user.type(screen.getByLabelText('Registration ID'), '  REG-1 ');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByLabelText('First name');
}

describe('registration step 1: the Registration ID', () => {
  it('asks for one', async () => {
    renderPublic(<RegisterPage />, { path: '/auth/register' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please, enter Registration ID');
  });

  it("shows the server's message of a refused ID, a 404 included, and sends it trimmed", async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(apiUrl(accountRoutes.verifyRegistrationId.path), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(failed(serverMessages.registrationIdInvalid), { status: 404 });
      }),
    );
    renderPublic(<RegisterPage />, { path: '/auth/register' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Registration ID'), ' NOPE ');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This Registration ID is not valid');
    expect(bodies).toEqual([{ registrationId: 'NOPE' }]);
  });

  it('any other failure gives the generic message', async () => {
    server.use(http.post(apiUrl(accountRoutes.verifyRegistrationId.path), () => HttpResponse.error()));
    renderPublic(<RegisterPage />, { path: '/auth/register' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Registration ID'), 'X');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An error occurred while submitting registration ID.');
  });
});

describe('registration step 2: the account form', () => {
  it('requires every field, then checks the passwords match', async () => {
    answerCountries();
    renderPublic(<RegisterPage />, { path: '/auth/register' });
    const user = userEvent.setup();
    await passStepOne(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please complete all required fields!');
  });

  it('capitalises names, keeps the dial code in the phone, registers and goes to /auth/connect', async () => {
    const searches = answerCountries();
    const registrations: unknown[] = [];
    server.use(
      http.post(apiUrl(accountRoutes.register.path), async ({ request }) => {
        registrations.push(await request.json());
        return HttpResponse.json(ok(accountRoutes.register, { tempAccountId: 'tmp-42' }));
      }),
    );
    const view = renderPublic(<RegisterPage />, { path: '/auth/register' });
    const user = userEvent.setup();
    await passStepOne(user);
    await user.type(screen.getByLabelText('First name'), 'mary ann');
    expect(screen.getByLabelText('First name')).toHaveValue('Mary Ann');
    await user.type(screen.getByLabelText('Last name'), 'lee');
    await user.type(screen.getByLabelText('Email'), 'mary@example.com');
    await user.type(screen.getByLabelText('Age'), '31');
    await user.click(screen.getByLabelText('Gender'));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Female' }));
    await user.type(screen.getByLabelText('Country'), 'sing');
    await user.click(await screen.findByRole('option', { name: /Singapore/ }));
    await waitFor(() => expect(searches).toContainEqual({ filter: [{ name: 'name', value: 'sing' }], pageSize: 32, pageIndex: 0 }));
    const phone = screen.getByLabelText('Mobile number');
    expect(phone).toHaveValue('+65');
    await user.type(phone, '9123-4567');
    expect(phone).toHaveValue('+6591234567');
    await user.type(screen.getByLabelText('Password'), 'long password');
    await user.type(screen.getByLabelText('Confirm password'), 'long passwords');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match! Please re-enter!');
    await user.type(screen.getByLabelText('Confirm password'), '{Backspace}');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(view.location()).toBe('/auth/connect?tempAccountId=tmp-42'));
    expect(registrations).toEqual([
      {
        registrationId: 'REG-1',
        firstName: 'Mary Ann',
        lastName: 'Lee',
        email: 'mary@example.com',
        age: 31,
        gender: 2,
        countryId: 3,
        phone: '+6591234567',
        password: 'long password',
      },
    ]);
  });
});
