import type { FastifyInstance } from 'fastify';
import { accountRoutes } from '../../../contract/api/account';
import { AccountStatus, AccountType } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { forbidden, notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { logStaffAction } from '../../lib/staff-log';
import { getAccount, insertAccount } from './repository';

/** Customers created by staff wait for approval; staff and agents start active. */
const initialStatus = (accountType: AccountType) => (accountType === AccountType.Customer ? AccountStatus.Pending : AccountStatus.Active);

export function registerAccountRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, accountRoutes.me, async ({ auth }) => {
    const account = await getAccount(deps.db, auth.accountId);
    if (!account) throw notFound(messages.notFound('Account'));
    return account;
  });

  registerRoute(app, accountRoutes.create, async ({ body, auth }) => {
    if (auth.accountType !== AccountType.Admin && body.accountType !== AccountType.Customer) {
      throw forbidden(messages.permissionDenied);
    }
    const id = await deps.db.transaction(async (tx) => {
      const accountId = await insertAccount(tx, { ...body, status: initialStatus(body.accountType) });
      await logStaffAction(tx, {
        actorAccountId: auth.accountId,
        action: 'create',
        targetType: 'account',
        targetId: accountId,
        details: { accountType: body.accountType },
      });
      return accountId;
    });
    return { id };
  });
}
