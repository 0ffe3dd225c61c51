import { HttpError, type AuthProvider, type UserIdentity } from 'ra-core';
import { canAccess } from '../../contract/access';
import type { AccountType } from '../../contract/enums';
import { readToken } from '../dataProvider/token';
import { accountApi, currentAccount, endSession, startSession } from './api';
import { landingPath, LOGIN_PATH } from './landing';

export interface AppIdentity extends UserIdentity {
  firstName: string;
  lastName: string;
  accountType: AccountType;
}

const isAuthError = (status: number) => status === 401 || status === 403;

/**
 * react-admin's authProvider. The login itself is two steps (password, then the emailed code) and
 * runs on the public pages; `login` here completes the second step.
 */
export const authProvider: AuthProvider = {
  async login({ accountId, code }: { accountId: number; code: string }) {
    const result = await accountApi.verifyCode({ accountId, code });
    startSession(result.accessToken.value);
    return { redirectTo: landingPath(result.accountType) };
  },
  async logout() {
    await endSession();
  },
  async checkAuth() {
    if (!readToken()) throw { redirectTo: LOGIN_PATH, message: false };
  },
  async checkError(error: unknown) {
    const status = error instanceof HttpError ? error.status : (error as { status?: number } | undefined)?.status;
    if (status !== undefined && isAuthError(status)) throw { redirectTo: LOGIN_PATH, logoutUser: true, message: false };
  },
  async getIdentity(): Promise<AppIdentity> {
    const account = await currentAccount();
    return {
      id: account.id,
      fullName: `${account.firstName} ${account.lastName}`,
      firstName: account.firstName,
      lastName: account.lastName,
      accountType: account.role.accountType as AccountType,
    };
  },
  async getPermissions() {
    if (!readToken()) return undefined;
    return (await currentAccount()).role.accountType;
  },
  async canAccess({ resource, action }) {
    if (!readToken()) return false;
    const account = await currentAccount();
    return canAccess(account.role.accountType as AccountType, { resource, action });
  },
};
