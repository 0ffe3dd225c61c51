import { AUDIT_DAY_OFFSET_HOURS } from '../../../contract/api/audit';

/** The audit lists' query parameters (spec 2); exits also have symbol and exitType. */
export const AUDIT_FILTERS = ['current', 'month', 'symbol', 'exitType'] as const;
export type AuditFilterName = (typeof AUDIT_FILTERS)[number];

/** `current=today` is the Today view; a number is one transaction id; absent is All. */
export const TODAY = 'today';

/** "Today" on the platform's business clock: now shifted by +8 hours, as YYYY-MM-DD (spec 9). */
export function auditToday(now: Date): string {
  return new Date(now.getTime() + AUDIT_DAY_OFFSET_HOURS * 3_600_000).toISOString().slice(0, 10);
}

/** The search's query (startDate/endDate) and `filter` list for the list's filters. */
export function auditRequest(filters: Partial<Record<string, unknown>>, now: Date) {
  const filter: { name: string; value: string | number }[] = [];
  const query: { startDate?: string; endDate?: string } = {};
  const current = filters.current;
  if (current === TODAY) {
    const day = auditToday(now);
    query.startDate = day;
    query.endDate = day;
  } else if (typeof current === 'string' && /^\d+$/.test(current)) {
    filter.push({ name: 'transactionId', value: Number(current) });
  }
  if (typeof filters.month === 'string' && filters.month !== '') filter.push({ name: 'datetimeInserted', value: filters.month });
  if (typeof filters.symbol === 'string' && filters.symbol !== '') filter.push({ name: 'strategy.symbol', value: filters.symbol });
  if (typeof filters.exitType === 'string' && /^[123]$/.test(filters.exitType)) filter.push({ name: 'exitType', value: Number(filters.exitType) });
  return { query, filter };
}
