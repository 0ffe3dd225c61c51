import type { ExecutionQuality } from '../../../contract/api/quality';

const COLUMNS: Array<keyof ExecutionQuality> = [
  'orderId', 'executionId', 'customerId', 'customerName', 'platformType', 'state', 'alertAt',
  'sentMs', 'ackMs', 'fillMs', 'entryPrice', 'slippageVsAlertBps', 'slippageVsFirstFillBps',
];

const cell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The copies as CSV, one row each, the contract's field names as the header. */
export function qualityCsv(rows: ExecutionQuality[]): string {
  return [COLUMNS.join(','), ...rows.map((row) => COLUMNS.map((column) => cell(row[column])).join(','))].join('\n');
}
