import { registrationIdRoutes, type RegistrationIdItem } from '../../../contract/api/registrationId';
import { callRoute } from '../http';
import { asRecord, toListResult, wholeNumber, wirePage } from '../paging';
import type { ResourceEndpoints } from '../types';

/** registrationIds: POST /api/registrationid/search (filter name status). */
export const registrationIdEndpoints: ResourceEndpoints<RegistrationIdItem> = {
  async getList(params) {
    const status = wholeNumber(params.filter?.status);
    const filter = status === undefined ? [] : [{ name: 'status', value: status }];
    return toListResult(await callRoute(registrationIdRoutes.search, { body: { ...wirePage(params), filter } }), asRecord);
  },
};

export const registrationIdActions = {
  /** Used, pending and expired counts. */
  getRegistrationIdStatistics: () => callRoute(registrationIdRoutes.statistics),
  /** A new single-use Registration ID: the signed-in agent's own, or (admins) for the chosen agent. */
  createRegistrationId: (agentId?: number) =>
    agentId === undefined ? callRoute(registrationIdRoutes.createOwn) : callRoute(registrationIdRoutes.createForAgent, { params: { agentId }, body: { agentId } }),
};
