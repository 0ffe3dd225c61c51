import type { FastifyInstance } from 'fastify';
import { orderRoutes } from '../../../contract/api/order';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { closeOrder } from '../../trading/intake';
import { customerOfAccount } from '../strategies/customer';
import { pageOf } from '../../db/paging';
import { getOrder, orderStatistics, orderSymbols, searchCustomerExecutions, searchOrders, transactionIds } from './repository';

export function registerOrderRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, orderRoutes.search, async ({ body }) => searchOrders(deps.db, body.filter, body));

  registerRoute(app, orderRoutes.statistics, async () => orderStatistics(deps.db));

  registerRoute(app, orderRoutes.symbols, async () => ({ symbols: await orderSymbols(deps.db) }));

  registerRoute(app, orderRoutes.transactionIds, async () => transactionIds(deps.db));

  registerRoute(app, orderRoutes.close, async ({ params, auth }) => {
    if (!(await getOrder(deps.db, params.id))) throw notFound(messages.notFound('Order'));
    await closeOrder(deps, { orderId: params.id, actorAccountId: auth.accountId });
    const order = await getOrder(deps.db, params.id);
    if (!order) throw notFound(messages.notFound('Order'));
    return order;
  });

  registerRoute(app, orderRoutes.customerSearch, async ({ body, auth }) => {
    const customer = await customerOfAccount(deps.db, auth.accountId);
    if (!customer) return pageOf([], 0, body);
    return searchCustomerExecutions(deps.db, customer.id, body.filter, body);
  });
}
