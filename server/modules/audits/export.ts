import { and, desc, lt } from 'drizzle-orm';
import { entryDirectionLabels, exitTypeLabel, orderEntryTypeLabels, type EntryDirection, type OrderEntryType } from '../../../contract/enums';
import type { Db, DbOrTx } from '../../db/client';
import { entryAudits, exitAudits } from '../../db/schema/index';
import type { TempFile } from '../../lib/temp-file';
import { DATE_TIME_FORMAT, writeXlsxFile, type XlsxColumn } from '../../lib/xlsx';
import { auditConditions, selectAudits, type AuditFilter, type AuditKind, type AuditRow } from './query';

const BATCH_SIZE = 1000;

const columns = (kind: AuditKind): XlsxColumn[] => [
  { header: 'ID', key: 'id', width: 10 },
  { header: 'Transaction ID', key: 'transactionId', width: 15 },
  { header: 'Customer', key: 'customer', width: 28 },
  { header: 'Agent', key: 'agent', width: 28 },
  { header: 'Strategy ID', key: 'strategyId', width: 18 },
  { header: 'Symbol', key: 'symbol', width: 14 },
  { header: 'Direction', key: 'direction', width: 10 },
  kind === 'entry' ? { header: 'Entry Type', key: 'type', width: 12 } : { header: 'Exit Type', key: 'type', width: 20 },
  { header: 'Date (UTC)', key: 'date', width: 18, style: { numFmt: DATE_TIME_FORMAT } },
  { header: 'Message', key: 'message', width: 80 },
];

function sheetRow(kind: AuditKind, row: AuditRow) {
  const name = (first: string | null, last: string | null) => (first === null ? '' : `${first} ${last ?? ''}`.trim());
  const type = kind === 'entry' ? (row.entryType === null ? '' : orderEntryTypeLabels[row.entryType as OrderEntryType] ?? '') : exitTypeLabel(row.exitType === null ? null : Number(row.exitType));
  return {
    id: row.id,
    transactionId: row.orderId ?? '',
    customer: name(row.firstName, row.lastName),
    agent: name(row.agentFirstName, row.agentLastName),
    strategyId: row.strategyId ?? '',
    symbol: row.symbol ?? '',
    direction: row.entryDirection === null ? '' : entryDirectionLabels[row.entryDirection as EntryDirection] ?? '',
    type,
    date: row.datetimeInserted,
    message: row.message,
  };
}

/** Audit rows matching the filters, newest first by id (ids grow with time), keyset-paged. */
async function* auditRows(tx: DbOrTx, kind: AuditKind, filter: AuditFilter) {
  const where = auditConditions(kind, filter);
  const idColumn = kind === 'entry' ? entryAudits.id : exitAudits.id;
  let before: number | undefined;
  for (;;) {
    const batch = await selectAudits(tx, kind, and(where, before === undefined ? undefined : lt(idColumn, before)))
      .orderBy(desc(idColumn))
      .limit(BATCH_SIZE);
    for (const row of batch) yield sheetRow(kind, row);
    if (batch.length < BATCH_SIZE) return;
    before = batch[batch.length - 1]!.id;
  }
}

/** The file name of an audit export. */
export const auditFileName = (kind: AuditKind) => `${kind}.xlsx`;

/**
 * entry.xlsx / exit.xlsx with every audit row matching the filters, newest first, streamed to a
 * temporary file (server/lib/xlsx.ts) from keyset pages read in one repeatable-read snapshot.
 */
export async function exportAudits(db: Db, kind: AuditKind, filter: AuditFilter): Promise<TempFile> {
  return db.transaction(async (tx) => writeXlsxFile(auditFileName(kind), kind === 'entry' ? 'Entry audit' : 'Exit audit', columns(kind), auditRows(tx, kind, filter)), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
}
