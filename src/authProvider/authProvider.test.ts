import { HttpError } from 'ra-core';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { accountRoutes } from '../../contract/api/account';
import { AccountType } from '../../contract/enums';
import { accountOf, apiUrl, failed, ok, server } from '../test/msw';
import { asRefusedWrite } from '../dataProvider/errors';
import { authProvider } from './authProvider';
import { landingPath } from './landing';

describe('authProvider', () => {
  it('checkAuth refuses without the cookie, sending to /auth/login', async () => {
    await expect(authProvider.checkAuth({})).rejects.toEqual({ redirectTo: '/auth/login', message: false });
    Cookies.set('accessToken', 't', { path: '/' });
    server.use(http.get(apiUrl(accountRoutes.me.path), () => HttpResponse.json(ok(accountRoutes.me, accountOf(AccountType.Admin)))));
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
  });

  it('checkError ends the session on a 401 only: a 403 never signs out (issue 10)', async () => {
    await expect(authProvider.checkError(new HttpError('x', 401))).rejects.toEqual({ redirectTo: '/auth/login', message: false });
    await expect(authProvider.checkError(new HttpError('Permission denied', 403))).resolves.toBeUndefined();
    await expect(authProvider.checkError(new HttpError('x', 400))).resolves.toBeUndefined();
    await expect(authProvider.checkError(new HttpError('x', 500))).resolves.toBeUndefined();
  });

  it('checkError leaves a refused write to its screen (react-admin would sign out and call it a success)', async () => {
    await expect(authProvider.checkError(asRefusedWrite(new HttpError('You need to be logged in', 401)))).resolves.toBeUndefined();
  });

  it('login verifies the code, stores the cookie and answers the landing page', async () => {
    server.use(
      http.post(apiUrl(accountRoutes.verifyEmail.path), () =>
        HttpResponse.json(ok(accountRoutes.verifyEmail, { accessToken: { value: 'tok', expiresAt: '2026-12-01T00:00:00.000Z' }, accountId: 2, accountType: AccountType.Agent })),
      ),
    );
    await expect(authProvider.login({ accountId: 2, code: '123456' })).resolves.toEqual({ redirectTo: '/agent/dashboard' });
    expect(Cookies.get('accessToken')).toBe('tok');
  });

  it('identity and canAccess come from GET /api/account and the contract table', async () => {
    Cookies.set('accessToken', 'employee-token', { path: '/' });
    server.use(http.get(apiUrl(accountRoutes.me.path), () => HttpResponse.json(ok(accountRoutes.me, accountOf(AccountType.Employee)))));
    await expect(authProvider.getIdentity!()).resolves.toMatchObject({ fullName: 'Ada Lovelace', accountType: AccountType.Employee });
    await expect(authProvider.canAccess!({ resource: 'customers', action: 'list' })).resolves.toBe(true);
    await expect(authProvider.canAccess!({ resource: 'customers', action: 'delete' })).resolves.toBe(false);
    await expect(authProvider.canAccess!({ resource: 'webhookGroups', action: 'list' })).resolves.toBe(true);
    await expect(authProvider.canAccess!({ resource: 'webhookGroups', action: 'edit' })).resolves.toBe(false);
  });

  it('checkAuth keeps a session whose account check answers 403, and refuses a 401', async () => {
    Cookies.set('accessToken', 'inactive', { path: '/' });
    server.use(http.get(apiUrl(accountRoutes.me.path), () => HttpResponse.json(failed('Your account is currently inactive.'), { status: 403 })));
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
    await expect(authProvider.canAccess!({ resource: 'customers', action: 'list' })).resolves.toBe(false);
    Cookies.set('accessToken', 'expired', { path: '/' });
    server.use(http.get(apiUrl(accountRoutes.me.path), () => HttpResponse.json(failed('Your session has expired'), { status: 401 })));
    await expect(authProvider.checkAuth({})).rejects.toEqual({ redirectTo: '/auth/login', message: false });
  });

  it('logout sends staff to /admin/login and customers to /auth/login (spec 2)', async () => {
    server.use(http.post(apiUrl(accountRoutes.logout.path), () => HttpResponse.json(ok(accountRoutes.logout, { success: true }))));
    for (const [accountType, landing] of [
      [AccountType.Admin, '/admin/login'],
      [AccountType.Employee, '/admin/login'],
      [AccountType.Agent, '/admin/login'],
      [AccountType.Customer, '/auth/login'],
    ] as const) {
      Cookies.set('accessToken', `session-${accountType}`, { path: '/' });
      server.use(http.get(apiUrl(accountRoutes.me.path), () => HttpResponse.json(ok(accountRoutes.me, accountOf(accountType)))));
      await authProvider.getIdentity!();
      await expect(authProvider.logout({})).resolves.toBe(landing);
    }
    // No session known (e.g. the cookie was already gone): the spec's route guard page.
    await expect(authProvider.logout({})).resolves.toBe('/auth/login');
  });

  it('logout calls POST /api/security/logout and removes the cookie', async () => {
    Cookies.set('accessToken', 'bye', { path: '/' });
    let auth: string | null = null;
    server.use(
      http.post(apiUrl(accountRoutes.logout.path), ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json(ok(accountRoutes.logout, { success: true }));
      }),
    );
    await authProvider.logout({});
    expect(auth).toBe('Bearer bye');
    expect(Cookies.get('accessToken')).toBeUndefined();
  });

  it('lands each account type on its dashboard', () => {
    expect([1, 2, 3, 4].map(landingPath)).toEqual(['/customer/dashboard', '/agent/dashboard', '/employee/dashboard', '/admin/dashboard']);
  });
});
