import { accountRoutes } from '../../../contract/api/account';
import { AccountStatus } from '../../../contract/enums';
import { callRoute } from '../http';
import { storeToken } from '../token';

/** Account actions shared by the customer, agent and employee profiles (PATCH /api/security/status, password resets). */
export const accountActions = {
  blockAccount: (accountId: number) => callRoute(accountRoutes.changeStatus, { params: { accountId }, body: { status: AccountStatus.Blocked } }),
  unblockAccount: (accountId: number) => callRoute(accountRoutes.changeStatus, { params: { accountId }, body: { status: AccountStatus.Active } }),
  /** Sets another account's password (POST /api/security/password/reset/{id}). */
  resetPasswordOf: (accountId: number, password: string) => callRoute(accountRoutes.resetPasswordOf, { params: { id: accountId }, body: { password } }),
  /**
   * Changes the signed-in account's own password (POST /api/security/password/reset), given the
   * current one. The server ends every session, this one included, and answers a new one: it
   * replaces the cookie at once.
   */
  changeOwnPassword: async (currentPassword: string, password: string) => {
    const result = await callRoute(accountRoutes.resetOwnPassword, { body: { currentPassword, password } });
    storeToken(result.accessToken.value);
    return result;
  },
};
