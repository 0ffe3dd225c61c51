import { and, count, desc, eq, gte, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import { alias, type SelectedFields } from 'drizzle-orm/pg-core';
import { AUDIT_DAY_OFFSET_HOURS, type AuditItem } from '../../../contract/api/audit';
import type { FilterItem } from '../../../contract/common';
import { AUTOMATIC_EXIT_FILTER, ExitType } from '../../../contract/enums';
import type { DbOrTx } from '../../db/client';
import { accounts, agents, customers, entryAudits, exitAudits, orders, strategies } from '../../db/schema/index';
import { addedSince, countColumns, currentSnapshot, type CountAtSnapshot } from '../../db/insert-only-count';
import { filterValue, offsetOf, type PageWindow } from '../../db/paging';
import { preparedPerHandle } from '../../db/prepared';
import { badRequest } from '../../http/errors';
import { idCondition, monthCondition, symbolCondition } from '../orders/filters';

export type AuditKind = 'entry' | 'exit';

const agentAccounts = alias(accounts, 'agent_accounts');
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** startDate/endDate as instants (see contract/api/audit.ts): a bare date is a UTC+8 calendar day. */
export function dateBounds(query: { startDate?: string | undefined; endDate?: string | undefined }): { from?: Date; to?: Date } {
  const dayStart = (value: string) => new Date(Date.parse(`${value}T00:00:00Z`) - AUDIT_DAY_OFFSET_HOURS * HOUR_MS);
  const from = query.startDate === undefined ? undefined : query.startDate.length === 10 ? dayStart(query.startDate) : new Date(query.startDate);
  const to = query.endDate === undefined ? undefined : query.endDate.length === 10 ? new Date(dayStart(query.endDate).getTime() + DAY_MS) : new Date(query.endDate);
  const endIsDay = query.endDate?.length === 10;
  if (from && to && (from > to || (endIsDay && from.getTime() >= to.getTime()))) throw badRequest('startDate must not be after endDate');
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

function table(kind: AuditKind) {
  return kind === 'entry' ? entryAudits : exitAudits;
}

export interface AuditFilter {
  filter: FilterItem[];
  startDate?: string | undefined;
  endDate?: string | undefined;
}

/** Exits of one type: 1 Manual (Admin), 2 Manual (Customer), or 3 the automatic ones (no exit type stored). */
function exitTypeCondition(value: string): SQL {
  if (value === String(AUTOMATIC_EXIT_FILTER)) return isNull(exitAudits.exitType);
  if (value !== String(ExitType.ByAdmin) && value !== String(ExitType.Customer)) {
    throw badRequest('filter exitType must be 0 (All), 1 (Manual (Admin)), 2 (Manual (Customer)) or 3 (Automatic (Signal, TP/SL))');
  }
  return eq(exitAudits.exitType, Number(value));
}

export function auditConditions(kind: AuditKind, input: AuditFilter): SQL | undefined {
  const t = table(kind);
  const { from, to } = dateBounds(input);
  const parts: Array<SQL | undefined> = [
    idCondition(input.filter, 'transactionId', t.orderId),
    monthCondition(input.filter, t.datetimeInserted),
    symbolCondition(input.filter),
    from ? gte(t.datetimeInserted, from) : undefined,
    to ? (input.endDate?.length === 10 ? lt(t.datetimeInserted, to) : lte(t.datetimeInserted, to)) : undefined,
  ];
  if (kind === 'exit') {
    const exitType = filterValue(input.filter, 'exitType');
    if (exitType !== undefined && exitType !== '0') parts.push(exitTypeCondition(exitType));
  }
  return and(...parts);
}

/** The audit rows with customer, agent and strategy (unordered); `where` from auditConditions. */
export function selectAudits(db: DbOrTx, kind: AuditKind, where: SQL | undefined) {
  const t = table(kind);
  return db
    .select({
      id: t.id,
      orderId: t.orderId,
      customerId: customers.id,
      firstName: accounts.firstName,
      lastName: accounts.lastName,
      agentId: agents.id,
      agentFirstName: agentAccounts.firstName,
      agentLastName: agentAccounts.lastName,
      strategyId: strategies.id,
      symbol: strategies.symbol,
      entryDirection: strategies.entryDirection,
      entryType: kind === 'entry' ? entryAudits.entryType : orders.entryType,
      exitType: kind === 'exit' ? exitAudits.exitType : sql<number | null>`null::smallint`,
      datetimeInserted: t.datetimeInserted,
      message: t.message,
    })
    .from(t)
    .leftJoin(customers, eq(customers.id, t.customerId))
    .leftJoin(accounts, eq(accounts.id, customers.accountId))
    .leftJoin(agents, eq(agents.id, customers.agentId))
    .leftJoin(agentAccounts, eq(agentAccounts.id, agents.accountId))
    .leftJoin(strategies, eq(strategies.id, t.strategyId))
    .leftJoin(orders, eq(orders.id, t.orderId))
    .where(where);
}

/** Newest first. */
export function auditOrder(kind: AuditKind) {
  const t = table(kind);
  return [desc(t.datetimeInserted), desc(t.id)];
}

export type AuditRow = Awaited<ReturnType<typeof selectAudits>>[number];

export function toAuditItem(row: AuditRow): AuditItem {
  return {
    id: row.id,
    transactionId: row.orderId,
    customer:
      row.customerId !== null && row.firstName !== null && row.lastName !== null
        ? {
            id: row.customerId,
            firstName: row.firstName,
            lastName: row.lastName,
            agent:
              row.agentId !== null && row.agentFirstName !== null && row.agentLastName !== null
                ? { id: row.agentId, firstName: row.agentFirstName, lastName: row.agentLastName }
                : null,
          }
        : null,
    strategy: row.strategyId !== null && row.symbol !== null && row.entryDirection !== null ? { id: row.strategyId, symbol: row.symbol, entryDirection: row.entryDirection } : null,
    entryType: row.entryType,
    exitType: row.exitType === null ? null : Number(row.exitType),
    datetimeInserted: row.datetimeInserted.toISOString(),
    message: row.message,
  };
}

/** Audit rows, joined to their strategy only when a symbol filter reads it. */
function fromAudits<Fields extends SelectedFields>(db: DbOrTx, kind: AuditKind, fields: Fields, input: AuditFilter) {
  const query = db.select(fields).from(table(kind)).$dynamic();
  return filterValue(input.filter, 'strategy.symbol') === undefined ? query : query.innerJoin(strategies, eq(strategies.id, table(kind).strategyId));
}

/** The count of a search, with the snapshot it was read in. */
export function countAudits(db: DbOrTx, kind: AuditKind, input: AuditFilter) {
  return fromAudits(db, kind, { n: count(), snapshot: currentSnapshot }, input).where(auditConditions(kind, input));
}

/** The ids of one page, newest first, on the audit table alone (exported for EXPLAIN checks), with what its count needs. */
export function auditPageQuery(db: DbOrTx, kind: AuditKind, input: AuditFilter, page: PageWindow, known?: CountAtSnapshot) {
  const where = auditConditions(kind, input);
  const t = table(kind);
  const added = known ? fromAudits(db, kind, { n: count() }, input).where(and(where, addedSince(t.insertedBy, known.snapshot))) : undefined;
  return fromAudits(db, kind, { id: t.id, ...countColumns(added) }, input)
    .where(where)
    .orderBy(...auditOrder(kind))
    .limit(page.pageSize)
    .offset(offsetOf(page));
}

/** The rows named by the `ids` placeholder (exported for EXPLAIN checks). */
export function auditRowsQuery(db: DbOrTx, kind: AuditKind) {
  return selectAudits(db, kind, sql`${table(kind).id} = any(${sql.placeholder('ids')}::bigint[])`);
}

/** The rows of some audit entries: one query shape per audit, prepared once per connection. */
export const auditRowsByIds = {
  entry: preparedPerHandle((db) => auditRowsQuery(db, 'entry').prepare('entry_audit_rows')),
  exit: preparedPerHandle((db) => auditRowsQuery(db, 'exit').prepare('exit_audit_rows')),
};
