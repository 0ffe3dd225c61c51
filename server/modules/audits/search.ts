import type { AuditItem } from '../../../contract/api/audit';
import type { Paged } from '../../../contract/envelope';
import type { DbOrTx } from '../../db/client';
import { insertOnlyCount } from '../../db/insert-only-count';
import { pageOf, type PageWindow } from '../../db/paging';
import { inOrderOf } from '../../db/prepared';
import { settledAnswer, settledVersionOf } from '../../db/settled-answers';
import { auditPageQuery, auditRowsByIds, countAudits, toAuditItem, type AuditFilter, type AuditKind } from './query';

/**
 * The entry or exit audit search: the page's ids on the audit table alone (its index carries the
 * order and every filter), then the rows of those ids; the count kept exact without counting again
 * (server/db/insert-only-count.ts).
 */
export function searchAudits(db: DbOrTx, kind: AuditKind, input: AuditFilter & PageWindow): Promise<Paged<AuditItem>> {
  const filters: AuditFilter = { filter: input.filter, startDate: input.startDate, endDate: input.endDate };
  const key = JSON.stringify([filters, input.pageIndex, input.pageSize]);
  return settledAnswer(db, `${kind}-audit-answers`, key, settledAuditListVersion, () => readAuditPage(db, kind, filters, input));
}

/** Whole answers are reused while neither the activity nor the customers and agents an audit row names have changed (migration activity_list_changes). */
const settledAuditListVersion = settledVersionOf('audit_list_settled_version');

async function readAuditPage(db: DbOrTx, kind: AuditKind, filters: AuditFilter, input: PageWindow): Promise<Paged<AuditItem>> {
  const total = insertOnlyCount(db, `${kind}_audits`, JSON.stringify(filters), async () => (await countAudits(db, kind, filters))[0]!);
  const page = await auditPageQuery(db, kind, filters, input, total.known);
  const ids = page.map((row) => row.id);
  const [rows, totalCount] = await Promise.all([ids.length ? auditRowsByIds[kind](db).execute({ ids }) : [], total.resolve(page)]);
  return pageOf(inOrderOf(ids, rows, (row) => row.id, toAuditItem), totalCount, input);
}
