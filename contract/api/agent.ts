import { z } from 'zod';
import { AGENT_DROPDOWN_PAGE_SIZE } from '../constants';
import { AccountStatus, Gender, enumValues } from '../enums';
import { email, id, idParam, pageQueryOf, pageRequest, personName, text } from '../common';
import { pagedOf, success } from '../envelope';
import { defineRoute, ErrorStatus } from '../route';
import { account, age, phone } from './account';
import { customer, customerFilterBody, textSearchBody } from './customer';

export const agent = z.object({
  id: z.number().int(),
  account,
  /** Customers of this agent whose account is not deleted (a live count, not a stored counter). */
  totalCustomers: z.number().int().nonnegative(),
});
export type Agent = z.infer<typeof agent>;

export const agentIdParams = z.object({ agentId: idParam });

/** The spec's two sortable columns of the agent list. */
export const AgentSortField = { FirstName: 'account.firstName', TotalCustomers: 'totalCustomers' } as const;
export type AgentSortField = (typeof AgentSortField)[keyof typeof AgentSortField];

export const agentFilterBody = pageRequest.extend({
  filter: z
    .object({
      /** Case-insensitive part of the first name, last name or "first last". */
      name: text().trim().max(200, 'name is too long').optional(),
      countryIds: z.array(id).max(300, 'countryIds may list at most 300 values').optional(),
    })
    .default({}),
  sort: z
    .object({
      name: z.enum([AgentSortField.FirstName, AgentSortField.TotalCustomers], { error: "sort.name must be 'account.firstName' or 'totalCustomers'" }),
      type: z.literal([1, 2], { error: 'sort type must be 1 (ascending) or 2 (descending)' }),
    })
    .nullish(),
});
export type AgentFilterBody = z.infer<typeof agentFilterBody>;

export const agentAllQuery = pageQueryOf();
/** What the agent dropdown asks for (spec 9: first 100 agents, page 0). */
export const AGENT_DROPDOWN_QUERY = { pageIndex: 0, pageSize: AGENT_DROPDOWN_PAGE_SIZE } as const;

const agentStatusValue = z.literal([AccountStatus.Blocked, AccountStatus.Active], { error: 'status must be 2 (Blocked) or 3 (Active)' });

/**
 * PUT /api/agent. `agentID` names the agent (agents.id). `passphrase` is sent by the spec's agent
 * form but has no meaning for an agent (agents have no exchange credentials, and passwords are
 * changed through POST /api/security/password/reset/{id}); it is accepted and ignored.
 */
export const agentUpdateBody = z.object({
  agentID: id,
  firstName: personName,
  lastName: personName,
  email,
  age,
  phone,
  countryId: id,
  gender: z.literal(enumValues(Gender), { error: 'gender must be 1 (Male) or 2 (Female)' }),
  status: agentStatusValue,
  passphrase: text().max(200, 'passphrase is too long').nullish(),
});
export type AgentUpdateBody = z.infer<typeof agentUpdateBody>;

/** Counters of the agent list and of the agent's own customer list: Active(n) and Blocked(n). */
export const activeBlockedStatistics = z.object({ active: z.number().int(), blocked: z.number().int() });

export const agentDashboardStatistics = z.object({
  totalCustomers: z.number().int(),
  /** Fees earned from this agent's customers in the previous calendar month (UTC), USDT. */
  prevMonthAmountEarned: z.number(),
  /** Fees earned from this agent's customers since the start, USDT. */
  totalAmountEarned: z.number(),
});

export const createdResult = success.extend({ id: z.number().int() });

/** DELETE /api/agent/{id}: the agent the customers move to, when the deleted agent has any. */
export const agentDeleteQuery = z.object({ moveCustomersTo: idParam.optional() });

export const agentRoutes = {
  own: defineRoute({
    method: 'GET', path: '/api/agent', access: 'agentOwn', tag: 'agents',
    summary: "The signed-in agent's own record", data: agent, errors: [ErrorStatus.NotFound],
  }),
  all: defineRoute({
    method: 'GET', path: '/api/agent/all', access: 'staffRead', tag: 'agents',
    summary: 'Every agent, paged (the agent dropdown asks for page 0, size 100)', query: agentAllQuery, data: pagedOf(agent),
  }),
  filter: defineRoute({
    method: 'POST', path: '/api/agent/filter', access: 'staffRead', tag: 'agents',
    summary: "Agents by name and countries, sorted by 'account.firstName' or 'totalCustomers'", body: agentFilterBody, data: pagedOf(agent),
  }),
  statistics: defineRoute({
    method: 'GET', path: '/api/agent/statistics', access: 'staffRead', tag: 'agents',
    summary: 'How many agents are active and blocked', data: activeBlockedStatistics,
  }),
  dashboardOwn: defineRoute({
    method: 'GET', path: '/api/agent/dashboard/statistics', access: 'agentOwn', tag: 'agents',
    summary: "The signed-in agent's customers and earnings", data: agentDashboardStatistics, errors: [ErrorStatus.NotFound],
  }),
  dashboardOf: defineRoute({
    method: 'GET', path: '/api/agent/dashboard/statistics/:agentId', access: ['staffRead', 'agentOwn'], tag: 'agents',
    summary: "An agent's customers and earnings (agents: their own only)", params: agentIdParams, data: agentDashboardStatistics,
    ownRecordsOnly: true, errors: [ErrorStatus.NotFound],
  }),
  byId: defineRoute({
    method: 'GET', path: '/api/agent/:agentId', access: ['staffRead', 'agentOwn'], tag: 'agents',
    summary: 'One agent (agents: their own only)', params: agentIdParams, data: agent, ownRecordsOnly: true, errors: [ErrorStatus.NotFound],
  }),
  create: defineRoute({
    method: 'POST', path: '/api/agent', access: 'adminManage', tag: 'agents',
    summary: 'Make an account created with accountType 2 (POST /api/account) an agent',
    body: z.object({ accountId: id }), data: createdResult, errors: [ErrorStatus.NotFound, ErrorStatus.Conflict],
  }),
  update: defineRoute({
    method: 'PUT', path: '/api/agent', access: 'adminManage', tag: 'agents',
    summary: "Update an agent's personal fields and status (2 Blocked, 3 Active)", body: agentUpdateBody, data: success,
    errors: [ErrorStatus.NotFound, ErrorStatus.Conflict],
  }),
  ownCustomersFilter: defineRoute({
    method: 'POST', path: '/api/agent/customers/own/filter', access: 'agentOwn', tag: 'agents',
    summary: "The signed-in agent's customers (every status unless filtered). API key and exchange UID are not shown to agents",
    body: customerFilterBody, data: pagedOf(customer), errors: [ErrorStatus.NotFound],
  }),
  ownCustomersSearch: defineRoute({
    method: 'POST', path: '/api/agent/customers/own/search/fullname', access: 'agentOwn', tag: 'agents',
    summary: "The signed-in agent's customers whose first and last name contain every word of text",
    body: textSearchBody, data: pagedOf(customer), errors: [ErrorStatus.NotFound],
  }),
  ownCustomersStatistics: defineRoute({
    method: 'GET', path: '/api/agent/customers/own/statistics', access: 'agentOwn', tag: 'agents',
    summary: "How many of the signed-in agent's customers are active and blocked", data: activeBlockedStatistics, errors: [ErrorStatus.NotFound],
  }),
  delete: defineRoute({
    method: 'DELETE', path: '/api/agent/:id', access: 'adminManage', tag: 'agents',
    summary:
      "Delete an agent's account (soft delete: history stays). An agent who still has customers is refused (409) unless moveCustomersTo names the active agent they move to (in the same transaction)",
    params: z.object({ id: idParam }), query: agentDeleteQuery, data: success,
    errors: [ErrorStatus.NotFound, ErrorStatus.Conflict],
  }),
};
