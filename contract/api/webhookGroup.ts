import { z } from 'zod';
import { idParam, pageQueryOf } from '../common';
import { WEBHOOK_GROUP_PAGE_SIZE } from '../constants';
import { pagedOf } from '../envelope';
import { defineRoute, ErrorStatus } from '../route';

/** "Receive Webhook Once": when on, a customer of the group holds at most one open position per strategy. */
export const webhookGroup = z.object({
  id: z.number().int(),
  /** CustomerGroup; the web app shows 'Unknown Group' for any other number. */
  group: z.number().int(),
  isActive: z.boolean(),
  datetimeUpdated: z.string(),
});
export type WebhookGroup = z.infer<typeof webhookGroup>;

export const webhookGroupRoutes = {
  list: defineRoute({
    // Staff read (spec 2 opens /activity/webhook to employees, read-only); only admins switch.
    method: 'GET', path: '/api/receiveonly/all', access: 'staffRead', tag: 'webhook groups',
    summary: 'One row per customer group with its Receive Webhook Once switch (admins and employees read; admins switch)', query: pageQueryOf(WEBHOOK_GROUP_PAGE_SIZE),
    data: pagedOf(webhookGroup),
  }),
  update: defineRoute({
    method: 'PATCH', path: '/api/receiveonly/:id', access: 'adminTrading', tag: 'webhook groups',
    summary: 'Switch Receive Webhook Once on or off for one group', params: z.object({ id: idParam }),
    body: z.object({ isActive: z.boolean({ error: 'isActive must be true or false' }) }),
    data: z.object({ id: z.number().int(), isActive: z.boolean(), datetimeUpdated: z.string() }), errors: [ErrorStatus.NotFound],
  }),
};
