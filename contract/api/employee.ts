import { z } from 'zod';
import { id, idParam, pageQueryOf } from '../common';
import { pagedOf, success } from '../envelope';
import { defineRoute, ErrorStatus } from '../route';
import { account } from './account';
import { createdResult } from './agent';

/** A staff member: account type 3 (Employee, "User") or 4 (Admin, "Super Admin"). */
export const employee = z.object({ id: z.number().int(), account });
export type Employee = z.infer<typeof employee>;

export const employeeAllQuery = pageQueryOf();

export const employeeDashboardStatistics = z.object({
  totalAgents: z.number().int(),
  totalCustomers: z.number().int(),
  /** Fees earned from every customer since the start, USDT. */
  totalAmountEarned: z.number(),
  /** Sum of every live customer's current wallet amount, USDT: the dashboard's "Total Wallet Amount (USDT)". */
  totalWalletAmount: z.number(),
});

export const employeeRoutes = {
  all: defineRoute({
    method: 'GET', path: '/api/employee/all', access: 'staffRead', tag: 'employees',
    summary: 'Every employee and admin, paged (50 by default)', query: employeeAllQuery, data: pagedOf(employee),
  }),
  dashboard: defineRoute({
    method: 'GET', path: '/api/employee/dashboard/statistics', access: 'staffRead', tag: 'employees',
    summary: 'Totals of the staff dashboard', data: employeeDashboardStatistics,
  }),
  byId: defineRoute({
    method: 'GET', path: '/api/employee/:id', access: 'staffRead', tag: 'employees',
    summary: 'One employee or admin', params: z.object({ id: idParam }), data: employee, errors: [ErrorStatus.NotFound],
  }),
  create: defineRoute({
    method: 'POST', path: '/api/employee', access: 'adminManage', tag: 'employees',
    summary: 'Make an account created with accountType 3 (User) or 4 (Super Admin) a staff member',
    body: z.object({ accountId: id }), data: createdResult, errors: [ErrorStatus.NotFound, ErrorStatus.Conflict],
  }),
  delete: defineRoute({
    method: 'DELETE', path: '/api/employee/:id', access: 'adminManage', tag: 'employees',
    summary: "Delete a staff member's account (soft delete: history stays)", params: z.object({ id: idParam }), data: success,
    errors: [ErrorStatus.NotFound],
  }),
};
