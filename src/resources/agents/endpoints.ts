import { AgentSortField, agentRoutes, type Agent } from '../../../contract/api/agent';
import { callRoute } from '../../dataProvider/http';
import { asRecord, toListResult, wirePage } from '../../dataProvider/paging';
import type { ResourceEndpoints } from '../../dataProvider/types';
import { wireSort } from '../common/listParams';

const SORTABLE: readonly string[] = Object.values(AgentSortField);

/** agents: POST /api/agent/filter (countries, sort by name or Total Clientele); GET and DELETE /api/agent/{id}. */
export const agentEndpoints: ResourceEndpoints<Agent> = {
  async getList(params) {
    const country = Number(params.filter?.country);
    const sort = wireSort(params);
    const body = {
      ...wirePage(params),
      filter: Number.isInteger(country) && country > 0 ? { countryIds: [country] } : {},
      sort: sort && SORTABLE.includes(sort.name) ? { name: sort.name as AgentSortField, type: sort.type } : null,
    };
    return toListResult(await callRoute(agentRoutes.filter, { body }), asRecord);
  },
  async getOne(params) {
    return { data: await callRoute(agentRoutes.byId, { params: { agentId: Number(params.id) } }) };
  },
  async delete(params) {
    await callRoute(agentRoutes.delete, { params: { id: Number(params.id) } });
    return { data: params.previousData ?? ({ id: Number(params.id) } as Agent) };
  },
};
