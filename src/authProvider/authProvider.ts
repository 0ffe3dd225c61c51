import { HttpError, type AuthProvider, type UserIdentity } from 'ra-core';
import type { Account } from '../../contract/api/account';
import { canAccess } from '../../contract/access';
import { AccountType } from '../../contract/enums';
import { isRefusedWrite } from '../dataProvider/errors';
import { readToken } from '../dataProvider/token';
import { accountApi, currentAccount, endSession, startSession } from './api';
import { landingPath, LOGIN_PATH, STAFF_LOGIN_PATH } from './landing';

export interface AppIdentity extends UserIdentity {
  fullName: string;
  accountType: AccountType;
  account: Account;
}

/** Only a 401 ends a session; a 403 means "not this", never "signed out" (issue 10). */
const UNAUTHORIZED = 401;

function statusOf(error: unknown): number | undefined {
  if (error instanceof HttpError) return error.status;
  const status = (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * react-admin's authProvider. Sign-in is two steps: the password (public page, which answers
 * `requires2FA`), then the emailed code, which `login` verifies through `useLogin`.
 */
export const authProvider: AuthProvider = {
  async login({ accountId, code }: { accountId: number; code: string }) {
    const result = await accountApi.verifyCode({ accountId, code });
    startSession(result.accessToken.value);
    return { redirectTo: landingPath(result.accountType) };
  },
  /** Staff (and agents) go to /admin/login, customers to /auth/login (spec 2). */
  async logout() {
    const accountType = await endSession();
    if (accountType === undefined || accountType === AccountType.Customer) return LOGIN_PATH;
    return STAFF_LOGIN_PATH;
  },
  /** Signed in while the cookie exists and GET /api/account does not answer 401. */
  async checkAuth() {
    if (!readToken()) throw { redirectTo: LOGIN_PATH, message: false };
    try {
      await currentAccount();
    } catch (error) {
      // A 403 (inactive account) keeps the session; canAccess answers false and the guard redirects.
      if (statusOf(error) === UNAUTHORIZED) throw { redirectTo: LOGIN_PATH, message: false };
    }
  },
  /** A refused write is left to its screen to report; the next read or route change signs out. */
  async checkError(error: unknown) {
    if (statusOf(error) === UNAUTHORIZED && !isRefusedWrite(error)) throw { redirectTo: LOGIN_PATH, message: false };
  },
  async getIdentity(): Promise<AppIdentity> {
    const account = await currentAccount();
    return {
      id: account.id,
      fullName: `${account.firstName} ${account.lastName}`,
      accountType: account.role.accountType as AccountType,
      account,
    };
  },
  async getPermissions() {
    if (!readToken()) return undefined;
    return (await currentAccount()).role.accountType;
  },
  /** The role table of contract/access.ts; false when signed out or the account check fails. */
  async canAccess({ resource, action }) {
    if (!readToken()) return false;
    try {
      const account = await currentAccount();
      return canAccess(account.role.accountType as AccountType, { resource, action });
    } catch {
      return false;
    }
  },
};
