import { and, ilike, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { CustomerFilter } from '../../../contract/api/customer';
import { likePattern } from '../../db/paging';
import { customers } from '../../db/schema/index';
import { monthRange } from '../orders/filters';

/** "firstName lastName" as searched by the full-name search (the trigger-kept copies). */
export const fullNameSql = sql<string>`(${customers.accountFirstName} || ' ' || ${customers.accountLastName})`;

/** How a filter value enters the statement: as a parameter of this query, or as a named placeholder. */
export type BindValue = (name: string, value: unknown) => SQL;

export const asParameter: BindValue = (_name, value) => sql`${sql.param(value)}`;

/**
 * Binds every value as a named placeholder and collects it in `values`: the statement's text then
 * depends only on which values are bound (their names), so it can be prepared once per shape.
 */
export function asPlaceholderInto(values: Record<string, unknown>): BindValue {
  return (name, value) => {
    values[name] = value;
    return sql`${sql.placeholder(name)}`;
  };
}

const anyOf = (column: AnyColumn, list: SQL) => sql`${column} = any(${list}::int[])`;

/**
 * WHERE conditions of the customer list. Status, country, "not deleted" and names are read from
 * the trigger-kept copies on customers, so filters, sorts and counts need no join.
 */
export function customerConditions(query: { filter: Partial<CustomerFilter>; agentId?: number; text?: string }, bind: BindValue = asParameter): SQL | undefined {
  const { filter } = query;
  // A constant, not a parameter: the partial indexes (`where account_live`) serve prepared plans too.
  const conditions: Array<SQL | undefined> = [sql`${customers.accountLive}`];
  if (filter.statuses?.length) conditions.push(anyOf(customers.accountStatus, bind('statuses', filter.statuses)));
  if (filter.countryIds?.length) conditions.push(anyOf(customers.accountCountryId, bind('countryIds', filter.countryIds)));
  if (filter.agentIds?.length) conditions.push(anyOf(customers.agentId, bind('agentIds', filter.agentIds)));
  if (filter.groups?.length) conditions.push(anyOf(customers.group, bind('groups', filter.groups)));
  if (filter.platformTypes?.length) conditions.push(anyOf(customers.platformType, bind('platformTypes', filter.platformTypes)));
  if (filter.datetimesInserted?.length) {
    const months = [...new Set(filter.datetimesInserted)].map((month) => monthRange(month, 'datetimesInserted'));
    conditions.push(
      or(
        ...months.map(({ start, end }, i) => {
          const from = bind(`monthStart${i}`, start.toISOString());
          const to = bind(`monthEnd${i}`, end.toISOString());
          return sql`(${customers.datetimeInserted} >= ${from}::timestamptz and ${customers.datetimeInserted} < ${to}::timestamptz)`;
        }),
      ),
    );
  }
  if (query.agentId !== undefined) conditions.push(sql`${customers.agentId} = ${bind('agentId', query.agentId)}::int`);
  (query.text ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .forEach((word, i) => conditions.push(ilike(fullNameSql, bind(`word${i}`, likePattern(word)))));
  return and(...conditions);
}
