import { z } from 'zod';
import { REGISTRATION_ID_PAGE_SIZE } from '../constants';
import { filterItem, idOf, numberFromText, pageRequestOf } from '../common';
import { pagedOf } from '../envelope';
import { defineRoute, ErrorStatus } from '../route';
import { ui } from '../messages';

export const registrationIdItem = z.object({
  id: z.number().int(),
  code: z.string(),
  /** 1 Pending, 2 Registered, 3 Expired: derived from the clock in every answer, never stored. */
  status: z.number().int(),
  datetimeInserted: z.string(),
  /** When the code was used to register ("Register Date"); null until then. */
  datetimeRegistered: z.string().nullable(),
  agent: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() }),
});
export type RegistrationIdItem = z.infer<typeof registrationIdItem>;

/** Filter names: status (1, 2 or 3), code (part of it), agentId (staff: one agent; agents: only their own). */
export const REGISTRATION_ID_FILTERS = ['status', 'code', 'agentId'] as const;

export const registrationIdSearchBody = pageRequestOf(REGISTRATION_ID_PAGE_SIZE).extend({
  filter: z.array(filterItem).max(10, 'filter may list at most 10 items').default([]),
});

export const registrationIdStatistics = z.object({ used: z.number().int(), pending: z.number().int(), expired: z.number().int() });

const agentIdValue = idOf(ui.registrationId.agentRequired);

export const registrationIdRoutes = {
  search: defineRoute({
    method: 'POST', path: '/api/registrationid/search', access: ['agentOwn', 'staffRead'], tag: 'registration-ids',
    summary:
      "Registration IDs, newest first (agents: their own; staff: everyone's, with the agent's name). Employees see a pending code's last four characters only, and their code filter matches whole codes",
    body: registrationIdSearchBody, data: pagedOf(registrationIdItem), ownRecordsOnly: true, errors: [ErrorStatus.NotFound],
  }),
  statistics: defineRoute({
    method: 'GET', path: '/api/registrationid/statistics', access: ['agentOwn', 'staffRead'], tag: 'registration-ids',
    summary: 'How many Registration IDs are used, pending and expired (agents: their own)', data: registrationIdStatistics,
    ownRecordsOnly: true,
  }),
  createOwn: defineRoute({
    method: 'POST', path: '/api/registrationid', access: 'agentOwn', tag: 'registration-ids',
    summary: 'Create a single-use Registration ID for the signed-in agent (valid 14 days)', data: registrationIdItem, errors: [ErrorStatus.NotFound],
  }),
  createForAgent: defineRoute({
    method: 'POST', path: '/api/registrationid/as/:agentId', access: 'adminForAgent', tag: 'registration-ids',
    summary: 'Create a single-use Registration ID for the chosen agent (valid 14 days)',
    params: z.object({ agentId: numberFromText(agentIdValue, ui.registrationId.agentRequired) }),
    body: z.object({ agentId: agentIdValue.optional() }).nullish(),
    data: registrationIdItem, errors: [ErrorStatus.NotFound],
  }),
};
