import type { Account } from '../../contract/api/account';
import type { RouteBodyInput } from '../../contract/route';
import { callRoute } from '../dataProvider/http';
import { readToken, removeToken, storeToken } from '../dataProvider/token';
import { publicRoutes as accountRoutes } from './publicRoutes';

/** The account calls of spec 7, used by the public pages and by the authProvider. */
export const accountApi = {
  login: (body: RouteBodyInput<typeof accountRoutes.login>) => callRoute(accountRoutes.login, { body, anonymous: true }),
  resendCode: (body: RouteBodyInput<typeof accountRoutes.requestVerification>) =>
    callRoute(accountRoutes.requestVerification, { body, anonymous: true }),
  verifyCode: (body: RouteBodyInput<typeof accountRoutes.verifyEmail>) => callRoute(accountRoutes.verifyEmail, { body, anonymous: true }),
  forgotPassword: (body: RouteBodyInput<typeof accountRoutes.forgotPassword>) =>
    callRoute(accountRoutes.forgotPassword, { body, anonymous: true }),
  verifyPassword: (body: RouteBodyInput<typeof accountRoutes.verifyPassword>) =>
    callRoute(accountRoutes.verifyPassword, { body, anonymous: true }),
  verifyRegistrationId: (body: RouteBodyInput<typeof accountRoutes.verifyRegistrationId>) =>
    callRoute(accountRoutes.verifyRegistrationId, { body, anonymous: true }),
  register: (body: RouteBodyInput<typeof accountRoutes.register>) => callRoute(accountRoutes.register, { body, anonymous: true }),
  me: () => callRoute(accountRoutes.me),
  logout: () => callRoute(accountRoutes.logout),
};

let cached: { token: string; account: Promise<Account> } | undefined;

/** GET /api/account, once per token (a new login or a logout starts over). */
export function currentAccount(): Promise<Account> {
  const token = readToken();
  if (!token) {
    cached = undefined;
    return accountApi.me();
  }
  if (cached?.token !== token) {
    const account = accountApi.me();
    cached = { token, account };
    account.catch(() => {
      if (cached?.account === account) cached = undefined;
    });
  }
  return cached.account;
}

/** Stores the verified session token; the next currentAccount() asks the server again. */
export function startSession(token: string): void {
  cached = undefined;
  storeToken(token);
}

/** Revokes the session on the server (best effort) and removes the cookie. */
export async function endSession(): Promise<void> {
  const hadToken = Boolean(readToken());
  cached = undefined;
  if (hadToken) await accountApi.logout().catch(() => undefined);
  removeToken();
}
