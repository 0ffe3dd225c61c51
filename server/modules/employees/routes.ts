import type { FastifyInstance } from 'fastify';
import { employeeRoutes } from '../../../contract/api/employee';
import type { Deps } from '../../deps';
import { registerRoute } from '../../http/route';
import { findEmployee, listEmployees } from './repository';
import { createEmployee, deleteEmployee, employeeDashboard, employeeNotFound } from './service';

export function registerEmployeeRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, employeeRoutes.all, async ({ query }) => listEmployees(deps.db, {}, query));

  registerRoute(app, employeeRoutes.dashboard, async () => employeeDashboard(deps));

  registerRoute(app, employeeRoutes.byId, async ({ params }) => {
    const employee = await findEmployee(deps.db, params.id);
    if (!employee) throw employeeNotFound();
    return employee;
  });

  registerRoute(app, employeeRoutes.create, async ({ auth, body }) => ({ success: true as const, id: await createEmployee(deps, auth.accountId, body.accountId) }));

  registerRoute(app, employeeRoutes.delete, async ({ auth, params }) => {
    await deleteEmployee(deps, auth.accountId, params.id);
    return { success: true as const };
  });
}
