import type { FastifyInstance } from 'fastify';
import { CUSTOMER_LIST_DEFAULT_STATUSES, customerRoutes } from '../../../contract/api/customer';
import { AccountType } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { forbidden, notFound } from '../../http/errors';
import { registerFileRoute, registerRoute } from '../../http/route';
import { logStaffAction } from '../../lib/staff-log';
import { exportCustomers } from './export';
import { customerStatistics, searchExclusiveCustomers } from './queries';
import { filterCustomers, findCustomer, findCustomerByAccount } from './repository';
import { changeGroup, changeGroupInBulk, createCustomer, removeCustomer, replaceCredentials } from './service';

const done = { success: true } as const;

export function registerCustomerRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, customerRoutes.create, async ({ body, auth }) => {
    // The fee is the admins' to agree (README: Security, the role table's grey areas): an employee's customer gets the default.
    if (auth.accountType !== AccountType.Admin && body.profitSharePct != null) throw forbidden(messages.profitShareAdminsOnly);
    return createCustomer(deps, auth.accountId, body);
  });

  registerRoute(app, customerRoutes.own, async ({ auth }) => {
    const customer = await findCustomerByAccount(deps.db, auth.accountId);
    if (!customer) throw notFound(messages.notFound('Customer'));
    return customer;
  });

  registerRoute(app, customerRoutes.statistics, async () => customerStatistics(deps.db));

  registerRoute(app, customerRoutes.byId, async ({ params, auth }) => {
    const customer = await findCustomer(deps.db, params.id);
    // A customer asking for someone else's record learns nothing: the same 404 as an unknown id.
    const visible = customer && (auth.accountType !== AccountType.Customer || customer.account.id === auth.accountId);
    if (!visible) throw notFound(messages.notFound('Customer'));
    return customer;
  });

  registerRoute(app, customerRoutes.credentials, async ({ params, body, auth }) => {
    await replaceCredentials(deps, auth.accountId, params.id, body);
    return done;
  });

  registerRoute(app, customerRoutes.remove, async ({ params, auth }) => {
    await removeCustomer(deps, auth.accountId, params.id);
    return done;
  });

  registerRoute(app, customerRoutes.group, async ({ params, body, auth }) => {
    await changeGroup(deps, auth.accountId, params.id, body.group);
    return done;
  });

  registerRoute(app, customerRoutes.bulkGroup, async ({ body, auth }) => {
    const updatedCount = await changeGroupInBulk(deps, auth.accountId, body.originalGroup, body.finalGroup);
    return { ...done, updatedCount };
  });

  registerRoute(app, customerRoutes.filter, async ({ body }) => {
    const statuses = body.filter.statuses.length ? body.filter.statuses : [...CUSTOMER_LIST_DEFAULT_STATUSES];
    return filterCustomers(deps.db, { filter: { ...body.filter, statuses }, sort: body.sort, page: body });
  });

  registerRoute(app, customerRoutes.searchFullName, async ({ body }) =>
    filterCustomers(deps.db, { filter: {}, text: body.text, sort: { name: 'account.firstName', type: 1 }, page: body }),
  );

  registerRoute(app, customerRoutes.searchExclusive, async ({ body }) => searchExclusiveCustomers(deps.db, body.text, body));

  registerFileRoute(app, customerRoutes.export, async ({ auth }) => {
    const file = await exportCustomers(deps.db);
    try {
      // Exports of personal data are audited like changes.
      await logStaffAction(deps.db, { actorAccountId: auth.accountId, action: 'export', targetType: 'customer', targetId: 'all', details: { bytes: file.bytes } });
    } catch (error) {
      await file.remove();
      throw error;
    }
    return { file };
  });
}
