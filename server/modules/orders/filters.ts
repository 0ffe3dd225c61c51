import { and, eq, gte, lt, type SQL, type SQLWrapper } from 'drizzle-orm';
import { MONTH_PATTERN } from '../../../contract/constants';
import { normaliseSymbol } from '../../../contract/api/strategy';
import { id, type FilterItem } from '../../../contract/common';
import { filterValue } from '../../db/paging';
import { badRequest } from '../../http/errors';
import { strategies } from '../../db/schema/index';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** [start, end) of a YYYY-MM month in UTC; a clear 400 for anything else. */
export function monthRange(value: string, filterName = 'datetimeInserted'): { start: Date; end: Date } {
  if (!MONTH_PATTERN.test(value)) throw badRequest(`filter ${filterName} must be a month written YYYY-MM, e.g. 2025-01`);
  const [year, month] = value.split('-').map(Number) as [number, number];
  return { start: new Date(Date.UTC(year, month - 1, 1)), end: new Date(Date.UTC(year, month, 1)) };
}

/** An id filter value (order id, transaction id, agent id): the contract's id, 1 to 2147483647. */
export function idFilter(filter: FilterItem[], name: string): number | undefined {
  const raw = filterValue(filter, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!id.safeParse(value).success) throw badRequest(`filter ${name} must be an id, a whole number from 1 to 2147483647`);
  return value;
}

export function monthCondition(filter: FilterItem[], column: PgColumn): SQL | undefined {
  const raw = filterValue(filter, 'datetimeInserted');
  if (raw === undefined) return undefined;
  const { start, end } = monthRange(raw);
  return and(gte(column, start), lt(column, end));
}

export function symbolCondition(filter: FilterItem[]): SQL | undefined {
  const raw = filterValue(filter, 'strategy.symbol');
  return raw === undefined ? undefined : eq(strategies.symbol, normaliseSymbol(raw));
}

export function idCondition(filter: FilterItem[], name: string, column: SQLWrapper & PgColumn): SQL | undefined {
  const value = idFilter(filter, name);
  return value === undefined ? undefined : eq(column, value);
}
