import { auditRoutes, type AuditItem } from '../../../contract/api/audit';
import { callRoute } from '../http';
import { asRecord, toListResult, wirePage } from '../paging';
import type { ListFilter, ResourceEndpoints } from '../types';
import { auditRequest } from './auditRequest';

export type AuditKind = 'entry' | 'exit';

/** entryAudits (POST /api/error/search) and exitAudits (POST /api/exit/search). */
export function auditEndpoints(kind: AuditKind): ResourceEndpoints<AuditItem> {
  const route = kind === 'entry' ? auditRoutes.entrySearch : auditRoutes.exitSearch;
  return {
    async getList(params) {
      const { query, filter } = auditRequest(params.filter ?? {}, new Date());
      return toListResult(await callRoute(route, { query, body: { ...wirePage(params), filter } }), asRecord);
    },
  };
}

export const auditActions = {
  /** The audit of `kind` with the list's filters as an Excel file (entry.xlsx / exit.xlsx), base64. */
  exportAudit: (kind: AuditKind, filters: ListFilter) => {
    const { query, filter } = auditRequest(filters, new Date());
    return callRoute(kind === 'entry' ? auditRoutes.entryExport : auditRoutes.exitExport, { query, body: { filter } });
  },
  /** Entry audit: its rows (errors); exit audit: failed exits (errors). The entries attempted (`total`) are not rows of the audit. */
  getAuditStatistics: async (kind: AuditKind): Promise<{ errors: number }> => ({
    errors: kind === 'entry' ? (await callRoute(auditRoutes.entryStatistics)).errors : (await callRoute(auditRoutes.exitStatistics)).error,
  }),
};
