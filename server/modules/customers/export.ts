import { asc, gt } from 'drizzle-orm';
import { accountStatusLabels, customerGroupLabels, exchangeLabels, type AccountStatus, type CustomerGroup, type Exchange } from '../../../contract/enums';
import type { Db, DbOrTx } from '../../db/client';
import { customers } from '../../db/schema/index';
import type { TempFile } from '../../lib/temp-file';
import { DATE_FORMAT, writeXlsxFile, type XlsxColumn } from '../../lib/xlsx';
import { selectCustomers, type CustomerSqlRow } from './repository';

/** Rows read per query: the export holds one batch of rows at a time, never the whole table. */
export const EXPORT_BATCH_SIZE = 1000;

export const exportColumns: XlsxColumn[] = [
  { header: 'Customer ID', key: 'id', width: 12 },
  { header: 'First Name', key: 'firstName', width: 18 },
  { header: 'Last Name', key: 'lastName', width: 18 },
  { header: 'Email', key: 'email', width: 32 },
  { header: 'Phone', key: 'phone', width: 16 },
  { header: 'Country', key: 'country', width: 20 },
  { header: 'Agent', key: 'agent', width: 24 },
  { header: 'Group', key: 'group', width: 12 },
  { header: 'Status', key: 'status', width: 12 },
  { header: 'Exchange', key: 'exchange', width: 12 },
  { header: 'Wallet (USDT)', key: 'wallet', width: 16, style: { numFmt: '#,##0.00' } },
  { header: 'Total Transactions', key: 'totalTransactions', width: 18 },
  { header: 'Since', key: 'since', width: 12, style: { numFmt: DATE_FORMAT } },
];

function labelOf<T extends number>(labels: Record<T, string>, value: number | null, none: string): string {
  if (value === null) return none;
  return labels[value as T] ?? String(value);
}

function sheetRow(row: CustomerSqlRow) {
  return {
    id: row.customerId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone ?? '',
    country: row.countryName ?? '',
    agent: row.agentFirstName !== null ? `${row.agentFirstName} ${row.agentLastName ?? ''}`.trim() : '',
    group: labelOf<CustomerGroup>(customerGroupLabels, row.group, ''),
    status: labelOf<AccountStatus>(accountStatusLabels, row.status, ''),
    exchange: labelOf<Exchange>(exchangeLabels, row.platformType === 0 ? null : row.platformType, 'None'),
    wallet: Number(row.currentWalletAmount),
    totalTransactions: row.totalTransactions,
    since: row.customerInserted,
  };
}

/** Live customers in id order, one keyset page at a time, as sheet rows. */
async function* customerRows(db: DbOrTx, batchSize: number) {
  let after = 0;
  for (;;) {
    const rows = await selectCustomers(db).where(gt(customers.id, after)).orderBy(asc(customers.id)).limit(batchSize);
    for (const row of rows) yield sheetRow(row);
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!.customerId;
  }
}

/**
 * customers.xlsx with every live customer, streamed to a temporary file (server/lib/xlsx.ts) from
 * keyset pages read in one repeatable-read snapshot (a consistent file even while customers change).
 */
export async function exportCustomers(db: Db, options: { batchSize?: number } = {}): Promise<TempFile> {
  return db.transaction(async (tx) => writeXlsxFile('customers.xlsx', 'Customers', exportColumns, customerRows(tx, options.batchSize ?? EXPORT_BATCH_SIZE)), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
}
