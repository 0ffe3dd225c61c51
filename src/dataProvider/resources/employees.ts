import { accountRoutes } from '../../../contract/api/account';
import { employeeRoutes, type Employee } from '../../../contract/api/employee';
import { callRoute } from '../http';
import { asRecord, deletedRecord, toListResult, wirePage } from '../paging';
import type { ResourceEndpoints } from '../types';
import type { NewPerson } from './agents';

/** employees: GET /api/employee/all; GET and DELETE /api/employee/{id}; create = account (type 3 or 4) + POST /api/employee. */
export const employeeEndpoints: ResourceEndpoints<Employee, NewPerson> = {
  async getList(params) {
    return toListResult(await callRoute(employeeRoutes.all, { query: wirePage(params) }), asRecord);
  },
  async getOne(params) {
    return { data: await callRoute(employeeRoutes.byId, { params: { id: Number(params.id) } }) };
  },
  async create({ data }) {
    if (!data.account) throw new Error('A new staff member needs an account');
    const account = await callRoute(accountRoutes.create, { body: data.account });
    const created = await callRoute(employeeRoutes.create, { body: { accountId: account.id } });
    return { data: await callRoute(employeeRoutes.byId, { params: { id: created.id } }) };
  },
  async delete(params) {
    await callRoute(employeeRoutes.delete, { params: { id: Number(params.id) } });
    return { data: deletedRecord(params) };
  },
};

export const employeeActions = {
  /** Totals of the staff dashboards (GET /api/employee/dashboard/statistics). */
  getStaffDashboard: () => callRoute(employeeRoutes.dashboard),
};
