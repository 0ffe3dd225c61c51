import { accountRoutes } from '../../../contract/api/account';
import { AGENT_DROPDOWN_QUERY, AgentSortField, agentRoutes, type Agent } from '../../../contract/api/agent';
import type { Gender } from '../../../contract/enums';
import type { RouteBodyInput } from '../../../contract/route';
import { callRoute } from '../http';
import { asRecord, deletedRecord, toListResult, wholeNumber, wirePage, wireSort } from '../paging';
import type { ResourceEndpoints } from '../types';

const SORTABLE: readonly string[] = Object.values(AgentSortField);

/** What the Add agent form creates: an account of type 2 (POST /api/account), then POST /api/agent. */
export interface NewPerson {
  account: RouteBodyInput<typeof accountRoutes.create>;
}

/** The PUT /api/agent body of an agent record (the route takes every personal field). */
function agentBody(agent: Agent): RouteBodyInput<typeof agentRoutes.update> {
  const { account } = agent;
  return {
    agentID: agent.id,
    firstName: account.firstName,
    lastName: account.lastName,
    email: account.email,
    age: account.age ?? 0,
    phone: account.phone ?? '',
    countryId: account.country?.id ?? 0,
    gender: (account.gender ?? 1) as Gender,
    status: account.status as RouteBodyInput<typeof agentRoutes.update>['status'],
  };
}

/** agents: POST /api/agent/filter (country, sort by name or Total Clientele); GET, PUT, DELETE; create = account + agent. */
export const agentEndpoints: ResourceEndpoints<Agent, NewPerson> = {
  async getList(params) {
    const country = wholeNumber(params.filter?.country);
    const sort = wireSort(params);
    const body = {
      ...wirePage(params),
      filter: country && country > 0 ? { countryIds: [country] } : {},
      sort: sort && SORTABLE.includes(sort.name) ? { name: sort.name as AgentSortField, type: sort.type } : null,
    };
    return toListResult(await callRoute(agentRoutes.filter, { body }), asRecord);
  },
  async getOne(params) {
    return { data: await callRoute(agentRoutes.byId, { params: { agentId: Number(params.id) } }) };
  },
  async create({ data }) {
    if (!data.account) throw new Error('A new agent needs an account');
    const account = await callRoute(accountRoutes.create, { body: data.account });
    const created = await callRoute(agentRoutes.create, { body: { accountId: account.id } });
    return { data: await callRoute(agentRoutes.byId, { params: { agentId: created.id } }) };
  },
  /** `data.account` may change the personal fields or the status; the rest comes from the record. */
  async update({ id, data, previousData }) {
    const merged: Agent = { ...previousData, ...data, account: { ...previousData.account, ...data.account } };
    await callRoute(agentRoutes.update, { body: agentBody(merged) });
    return { data: await callRoute(agentRoutes.byId, { params: { agentId: Number(id) } }) };
  },
  /** `meta.moveCustomersTo`: the agent the deleted agent's customers move to (required while it has any). */
  async delete(params) {
    const moveCustomersTo = wholeNumber((params.meta as { moveCustomersTo?: unknown } | undefined)?.moveCustomersTo);
    await callRoute(agentRoutes.delete, { params: { id: Number(params.id) }, query: moveCustomersTo === undefined ? {} : { moveCustomersTo } });
    return { data: deletedRecord(params) };
  },
};

export const agentActions = {
  /** Active and Blocked agents (GET /api/agent/statistics). */
  getAgentStatistics: () => callRoute(agentRoutes.statistics),
  /** The first 100 agents for the agent dropdowns (GET /api/agent/all, page 0). */
  getAgentChoices: () => callRoute(agentRoutes.all, { query: AGENT_DROPDOWN_QUERY }),
  /** An agent's customers and earnings (GET /api/agent/dashboard/statistics/{agentId}). */
  getAgentDashboard: (agentId: number) => callRoute(agentRoutes.dashboardOf, { params: { agentId } }),
  /** The signed-in agent's customers and earnings. */
  getOwnAgentDashboard: () => callRoute(agentRoutes.dashboardOwn),
  /** The signed-in agent's own record (GET /api/agent). */
  getOwnAgent: () => callRoute(agentRoutes.own),
};
