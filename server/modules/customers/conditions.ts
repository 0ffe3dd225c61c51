import { and, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { CustomerFilter } from '../../../contract/api/customer';
import { likePattern } from '../../db/paging';
import { customers } from '../../db/schema/index';

/** [start, end) of a YYYY-MM month in UTC. */
export function monthRange(month: string): [Date, Date] {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return [new Date(Date.UTC(year, mon - 1, 1)), new Date(Date.UTC(year, mon, 1))];
}

/** "firstName lastName" as searched by the full-name search (the trigger-kept copies). */
export const fullNameSql = sql<string>`(${customers.accountFirstName} || ' ' || ${customers.accountLastName})`;

/**
 * WHERE conditions of the customer list. Status, country, "not deleted" and names are read from
 * the trigger-kept copies on customers, so filters, sorts and counts need no join.
 */
export function customerConditions(query: { filter: Partial<CustomerFilter>; agentId?: number; text?: string }): SQL | undefined {
  const { filter } = query;
  const conditions: Array<SQL | undefined> = [eq(customers.accountLive, true)];
  if (filter.statuses?.length) conditions.push(inArray(customers.accountStatus, filter.statuses));
  if (filter.countryIds?.length) conditions.push(inArray(customers.accountCountryId, filter.countryIds));
  if (filter.agentIds?.length) conditions.push(inArray(customers.agentId, filter.agentIds));
  if (filter.groups?.length) conditions.push(inArray(customers.group, filter.groups));
  if (filter.platformTypes?.length) conditions.push(inArray(customers.platformType, filter.platformTypes));
  if (filter.datetimesInserted?.length) {
    const months = [...new Set(filter.datetimesInserted)].map(monthRange);
    conditions.push(or(...months.map(([start, end]) => and(gte(customers.datetimeInserted, start), lt(customers.datetimeInserted, end)))));
  }
  if (query.agentId !== undefined) conditions.push(eq(customers.agentId, query.agentId));
  for (const word of (query.text ?? '').split(/\s+/).filter(Boolean)) {
    conditions.push(ilike(fullNameSql, likePattern(word)));
  }
  return and(...conditions);
}
