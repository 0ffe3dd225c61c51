import type { Account } from '../../contract/api/account';
import type { RouteBodyInput } from '../../contract/route';
import { callRoute } from '../dataProvider/http';
import { readToken, removeToken, storeToken } from '../dataProvider/token';
import { publicRoutes } from './publicRoutes';

/**
 * The calls of spec 7 made outside the back office: the public pages (login, forgot password,
 * registration, connect) and the authProvider. Back-office screens use the dataProvider instead.
 */
export const accountApi = {
  login: (body: RouteBodyInput<typeof publicRoutes.login>) => callRoute(publicRoutes.login, { body, anonymous: true }),
  resendCode: (body: RouteBodyInput<typeof publicRoutes.requestVerification>) =>
    callRoute(publicRoutes.requestVerification, { body, anonymous: true }),
  verifyCode: (body: RouteBodyInput<typeof publicRoutes.verifyEmail>) => callRoute(publicRoutes.verifyEmail, { body, anonymous: true }),
  forgotPassword: (body: RouteBodyInput<typeof publicRoutes.forgotPassword>) => callRoute(publicRoutes.forgotPassword, { body, anonymous: true }),
  verifyPassword: (body: RouteBodyInput<typeof publicRoutes.verifyPassword>) => callRoute(publicRoutes.verifyPassword, { body, anonymous: true }),
  verifyRegistrationId: (body: RouteBodyInput<typeof publicRoutes.verifyRegistrationId>) =>
    callRoute(publicRoutes.verifyRegistrationId, { body, anonymous: true }),
  register: (body: RouteBodyInput<typeof publicRoutes.register>) => callRoute(publicRoutes.register, { body, anonymous: true }),
  /** Countries by name, 32 per page (the country and dial-code picker). */
  searchCountries: (body: RouteBodyInput<typeof publicRoutes.countrySearch>, signal?: AbortSignal) =>
    callRoute(publicRoutes.countrySearch, { body, anonymous: true, ...(signal ? { signal } : {}) }),
  /** The exchange's authorisation URL for quick connect. */
  exchangeAuthorizeUrl: (exchange: string, tempAccountId: string) => callRoute(publicRoutes.oauthStart, { params: { exchange, tempAccountId }, anonymous: true }),
  me: () => callRoute(publicRoutes.me),
  logout: () => callRoute(publicRoutes.logout),
};

let cached: { token: string; account: Promise<Account> } | undefined;
/** The account type of the last session seen, so that logging out knows which login page follows. */
let lastAccountType: number | undefined;
/**
 * Set from the start of a log-out until a login page shows: meanwhile the old page must not
 * redirect on its own. Once the login page is there, a back-office URL (Back) redirects to it.
 */
let signingOut = false;

export function isSigningOut(): boolean {
  return signingOut;
}

/** The log-out has reached its login page (issue 28: Back then showed a blank page). */
export function signOutReachedLogin(): void {
  signingOut = false;
}

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
    account.then(
      (found) => {
        lastAccountType = found.role.accountType;
      },
      () => {
        if (cached?.account === account) cached = undefined;
      },
    );
  }
  return cached.account;
}

/** Stores the verified session token; the next currentAccount() asks the server again. */
export function startSession(token: string): void {
  cached = undefined;
  signingOut = false;
  storeToken(token);
}

/**
 * Revokes the session on the server (best effort) and removes the cookie. Answers the account
 * type of the session that ended (undefined when none was known).
 */
export async function endSession(): Promise<number | undefined> {
  const hadToken = Boolean(readToken());
  const accountType = lastAccountType;
  signingOut = true;
  cached = undefined;
  lastAccountType = undefined;
  if (hadToken) await accountApi.logout().catch(() => undefined);
  removeToken();
  return accountType;
}
