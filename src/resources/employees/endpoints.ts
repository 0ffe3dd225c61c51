import { employeeRoutes, type Employee } from '../../../contract/api/employee';
import { callRoute } from '../../dataProvider/http';
import { asRecord, toListResult, wirePage } from '../../dataProvider/paging';
import type { ResourceEndpoints } from '../../dataProvider/types';

/** employees: GET /api/employee/all; GET and DELETE /api/employee/{id}. */
export const employeeEndpoints: ResourceEndpoints<Employee> = {
  async getList(params) {
    return toListResult(await callRoute(employeeRoutes.all, { query: wirePage(params) }), asRecord);
  },
  async getOne(params) {
    return { data: await callRoute(employeeRoutes.byId, { params: { id: Number(params.id) } }) };
  },
  async delete(params) {
    await callRoute(employeeRoutes.delete, { params: { id: Number(params.id) } });
    return { data: params.previousData ?? ({ id: Number(params.id) } as Employee) };
  },
};
