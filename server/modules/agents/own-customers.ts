import type { FastifyInstance } from 'fastify';
import { agentRoutes } from '../../../contract/api/agent';
import type { Customer } from '../../../contract/api/customer';
import { AccountStatus } from '../../../contract/enums';
import type { Paged } from '../../../contract/envelope';
import type { Deps } from '../../deps';
import { registerRoute } from '../../http/route';
import { deepFreeze } from '../../lib/deep-freeze';
import { customerStatusCounts } from '../customers/queries';
import { filterCustomers } from '../customers/repository';
import { agentNotFound, ownAgentIdOf } from './service';

/** The agent's view of kept (frozen) answers, kept with them: a reused answer is not copied again. */
const agentViews = new WeakMap<Paged<Customer>, Paged<Customer>>();

/** Agents see their customers without the exchange API key and account UID. */
function forAgent(page: Paged<Customer>): Paged<Customer> {
  const kept = agentViews.get(page);
  if (kept) return kept;
  const view = { ...page, data: page.data.map((customer) => ({ ...customer, apiKey: null, exchangeAccountUUID: null })) };
  if (!Object.isFrozen(page)) return view;
  agentViews.set(page, deepFreeze(view));
  return view;
}

/** The agent's own customer list, search and counters: always forced to the caller's agent id. */
export function registerOwnCustomerRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;

  registerRoute(app, agentRoutes.ownCustomersFilter, async ({ auth, body }) => {
    const ownId = ownAgentIdOf(auth);
    // Naming another agent in the filter is asking for their customers: the same 404 as an unknown agent.
    if (body.filter.agentIds.some((agentId) => agentId !== ownId)) throw agentNotFound();
    const filter = { ...body.filter, agentIds: [] };
    return forAgent(await filterCustomers(db, { filter, sort: body.sort, page: body, agentId: ownId }));
  });

  registerRoute(app, agentRoutes.ownCustomersSearch, async ({ auth, body }) => {
    const agentId = ownAgentIdOf(auth);
    return forAgent(await filterCustomers(db, { filter: {}, text: body.text, page: body, agentId }));
  });

  registerRoute(app, agentRoutes.ownCustomersStatistics, async ({ auth }) => {
    const counts = await customerStatusCounts(db, ownAgentIdOf(auth));
    return { active: counts.get(AccountStatus.Active) ?? 0, blocked: counts.get(AccountStatus.Blocked) ?? 0 };
  });
}
