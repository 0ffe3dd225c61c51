import type { FastifyInstance } from 'fastify';
import { agentRoutes } from '../../../contract/api/agent';
import { AccountType } from '../../../contract/enums';
import type { Deps } from '../../deps';
import type { AuthContext } from '../../http/route';
import { registerRoute } from '../../http/route';
import { agentDashboard } from './dashboard';
import { agentStatistics, findAgent, listAgents } from './repository';
import { registerOwnCustomerRoutes } from './own-customers';
import { agentNotFound, createAgent, deleteAgent, ownAgentOf, updateAgent } from './service';

export function registerAgentRoutes(app: FastifyInstance, deps: Deps): void {
  const { db } = deps;

  const ownAgent = (auth: AuthContext) => ownAgentOf(db, auth.accountId);

  /** An agent by id; an agent asking for anyone but themselves gets 404. */
  const visibleAgent = async (auth: AuthContext, agentId: number) => {
    const agent = await findAgent(db, { agentId });
    if (!agent || (auth.accountType === AccountType.Agent && agent.account.id !== auth.accountId)) throw agentNotFound();
    return agent;
  };

  registerRoute(app, agentRoutes.own, async ({ auth }) => ownAgent(auth));

  registerRoute(app, agentRoutes.all, async ({ query }) => listAgents(db, {}, query));

  registerRoute(app, agentRoutes.filter, async ({ body }) =>
    listAgents(db, { name: body.filter.name, countryIds: body.filter.countryIds, sort: body.sort }, body),
  );

  registerRoute(app, agentRoutes.statistics, async () => agentStatistics(db));

  registerRoute(app, agentRoutes.dashboardOwn, async ({ auth }) => agentDashboard(db, deps.clock.now(), (await ownAgent(auth)).id));

  registerRoute(app, agentRoutes.dashboardOf, async ({ auth, params }) =>
    agentDashboard(db, deps.clock.now(), (await visibleAgent(auth, params.agentId)).id),
  );

  registerRoute(app, agentRoutes.byId, async ({ auth, params }) => visibleAgent(auth, params.agentId));

  registerRoute(app, agentRoutes.create, async ({ auth, body }) => ({ success: true as const, id: await createAgent(deps, auth.accountId, body.accountId) }));

  registerRoute(app, agentRoutes.update, async ({ auth, body }) => {
    await updateAgent(deps, auth.accountId, body);
    return { success: true as const };
  });

  registerOwnCustomerRoutes(app, deps);

  registerRoute(app, agentRoutes.delete, async ({ auth, params, query }) => {
    await deleteAgent(deps, auth.accountId, params.id, query.moveCustomersTo);
    return { success: true as const };
  });
}
