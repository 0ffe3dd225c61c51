import { z } from 'zod';
import { filterItem, pageRequestOf, text } from '../common';
import { AUDIT_PAGE_SIZE } from '../constants';
import { pagedOf } from '../envelope';
import { defineRoute } from '../route';

/**
 * Entry audit (/api/error/...) and exit audit (/api/exit/...).
 *
 * Filter names: `transactionId` (order id), `datetimeInserted` (a month YYYY-MM, UTC),
 * `strategy.symbol`, and on exits `exitType` (0 all, 1 Manual (Admin), 2 Manual (Customer), 3 Automatic (Signal, TP/SL)).
 *
 * `startDate` / `endDate` (query): an ISO date (YYYY-MM-DD) is a calendar day on the platform's
 * business clock, UTC+8 — the clock the web app's "Today" uses (it shifts now by +8 hours and
 * takes the date). `startDate=2025-01-10` therefore starts at 2025-01-10T00:00+08:00
 * (2025-01-09T16:00Z) and `endDate=2025-01-10` ends at 2025-01-11T00:00+08:00, both days
 * inclusive. A full ISO date-time with a zone (2025-01-10T00:00:00Z) is taken as that instant.
 */
export const AUDIT_DAY_OFFSET_HOURS = 8;

const auditDate = text()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/, {
    message: 'must be an ISO date (YYYY-MM-DD) or date-time with a zone',
    abort: true,
  })
  .refine((value) => !Number.isNaN(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)), 'is not a real date');

export const auditSearchQuery = z.object({ startDate: auditDate.optional(), endDate: auditDate.optional() });
export const auditSearchBody = pageRequestOf(AUDIT_PAGE_SIZE).extend({ filter: z.array(filterItem).max(20, 'filter may list at most 20 items').default([]) });

export const auditItem = z.object({
  id: z.number().int(),
  /** The order id; null when the alert was refused before an order existed. */
  transactionId: z.number().int().nullable(),
  customer: z
    .object({
      id: z.number().int(),
      firstName: z.string(),
      lastName: z.string(),
      agent: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() }).nullable(),
    })
    .nullable(),
  strategy: z.object({ id: z.string(), symbol: z.string(), entryDirection: z.number().int() }).nullable(),
  entryType: z.number().int().nullable(),
  exitType: z.number().int().nullable(),
  datetimeInserted: z.string(),
  message: z.string(),
});
export type AuditItem = z.infer<typeof auditItem>;

/** Export takes the same filters as the search (all rows when empty). */
export const auditExportBody = z
  .object({ filter: z.array(filterItem).max(20, 'filter may list at most 20 items').default([]) })
  .nullish()
  .transform((body) => body ?? { filter: [] });
export const exportResult = z.object({ fileBase64String: z.string(), fileName: z.string() });

export const auditRoutes = {
  entrySearch: defineRoute({
    method: 'POST', path: '/api/error/search', access: 'staffRead', tag: 'audits',
    summary: 'Entry audit: failed or skipped entries, newest first (50 per page by default)',
    query: auditSearchQuery, body: auditSearchBody, data: pagedOf(auditItem),
  }),
  entryStatistics: defineRoute({
    method: 'GET', path: '/api/error/statistics', access: 'staffRead', tag: 'audits',
    summary: 'Entries attempted for customers (total) and entry audit rows (errors)',
    data: z.object({ total: z.number().int(), errors: z.number().int() }),
  }),
  entryExport: defineRoute({
    method: 'POST', path: '/api/error/export', access: 'adminManage', tag: 'audits',
    summary: 'The entry audit as an Excel file (entry.xlsx), base64', query: auditSearchQuery, body: auditExportBody, data: exportResult,
  }),
  exitSearch: defineRoute({
    method: 'POST', path: '/api/exit/search', access: 'staffRead', tag: 'audits',
    summary: 'Exit audit: every exit (by admin, by customer, by TP/SL), newest first',
    query: auditSearchQuery, body: auditSearchBody, data: pagedOf(auditItem),
  }),
  exitStatistics: defineRoute({
    method: 'GET', path: '/api/exit/statistics', access: 'staffRead', tag: 'audits',
    summary: 'Number of failed exits', data: z.object({ error: z.number().int() }),
  }),
  exitExport: defineRoute({
    method: 'POST', path: '/api/exit/export', access: 'adminManage', tag: 'audits',
    summary: 'The exit audit as an Excel file (exit.xlsx), base64', query: auditSearchQuery, body: auditExportBody, data: exportResult,
  }),
};

/**
 * Notifications websocket (admins and employees): connect to NOTIFICATIONS_PATH, send the access
 * token as the FIRST message (`{ "token": "..." }` or the bare token). The server answers
 * `{ data: { type: 0, message } }` once subscribed, then pushes `{ data: { type, message } }` with
 * type 1 (entry failure) or 2 (exit failure). A wrong token or role closes the socket with 1008.
 */
export const NOTIFICATIONS_PATH = '/api/notifications';
export const NOTIFICATION_READY = 0;
export const SOCKET_POLICY_VIOLATION = 1008;
export const SOCKET_AUTH_TIMEOUT_MS = 10_000;
export const socketMessages = {
  ready: 'Subscribed to staff notifications',
  invalidToken: 'Invalid or expired access token',
  notStaff: 'Notifications are for admins and employees only',
  authTimeout: 'Send the access token as the first message',
  sessionEnded: 'Your session has ended',
  serverClosing: 'Server is shutting down',
  unavailable: 'Notifications are unavailable; try again later',
} as const;
