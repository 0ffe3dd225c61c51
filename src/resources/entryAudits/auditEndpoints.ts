import { auditRoutes, type AuditItem } from '../../../contract/api/audit';
import { callRoute } from '../../dataProvider/http';
import { asRecord, toListResult, wirePage } from '../../dataProvider/paging';
import type { ResourceEndpoints } from '../../dataProvider/types';
import { auditRequest } from './auditRequest';

/** entryAudits (POST /api/error/search) and exitAudits (POST /api/exit/search). */
export function auditEndpoints(kind: 'entry' | 'exit'): ResourceEndpoints<AuditItem> {
  const route = kind === 'entry' ? auditRoutes.entrySearch : auditRoutes.exitSearch;
  return {
    async getList(params) {
      const { query, filter } = auditRequest(params.filter ?? {}, new Date());
      return toListResult(await callRoute(route, { query, body: { ...wirePage(params), filter } }), asRecord);
    },
  };
}
