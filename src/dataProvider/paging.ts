import type { DeleteParams, GetListParams, GetListResult, RaRecord } from 'ra-core';
import type { FilterItem } from '../../contract/common';
import { DEFAULT_PAGE_SIZE } from '../../contract/constants';
import { SortType } from '../../contract/enums';
import type { Paged } from '../../contract/envelope';
import type { ListFilter } from './types';

/** react-admin pages start at 1, the wire's `pageIndex` at 0. */
export function wirePage(params: Pick<GetListParams, 'pagination'>): { pageIndex: number; pageSize: number } {
  const page = params.pagination?.page ?? 1;
  const perPage = params.pagination?.perPage ?? DEFAULT_PAGE_SIZE;
  return { pageIndex: Math.max(0, page - 1), pageSize: perPage };
}

/** A paged answer (`data.data`, `data.paging.totalCount`) as react-admin's list result. */
export function toListResult<T, R extends RaRecord>(paged: Paged<T>, toRecord: (row: T) => R): GetListResult<R> {
  const data = paged.data.map(toRecord);
  const { pageIndex, pageSize, totalCount } = paged.paging;
  return {
    data,
    total: totalCount,
    pageInfo: { hasPreviousPage: pageIndex > 0, hasNextPage: (pageIndex + 1) * pageSize < totalCount },
  };
}

/** For rows that already carry a numeric or string `id`. */
export function asRecord<T extends { id: string | number }>(row: T): T & RaRecord {
  return row;
}

/** react-admin's sort as the wire's `{ name, type }`, or undefined when not sorted (empty field). */
export function wireSort(params: Pick<GetListParams, 'sort'>): { name: string; type: SortType } | undefined {
  const field = params.sort?.field;
  if (!field) return undefined;
  return { name: field, type: params.sort?.order === 'DESC' ? SortType.Descending : SortType.Ascending };
}

/**
 * The spec's `filter: [{ name, value }]` list from react-admin's filter object: `names` maps each
 * list filter (the query parameter) to the wire's filter name; empty values are left out.
 */
export function filterList(filter: ListFilter | undefined, names: Readonly<Record<string, string>>): FilterItem[] {
  const list: FilterItem[] = [];
  for (const [key, name] of Object.entries(names)) {
    const value = filter?.[key];
    if ((typeof value === 'string' && value !== '') || typeof value === 'number') list.push({ name, value });
  }
  return list;
}

/** One number from a query-string filter value, or undefined when empty or not a whole number. */
export function wholeNumber(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) ? n : undefined;
}

/** What a delete answers react-admin: the record as it was (the API answers only success). */
export function deletedRecord<R extends RaRecord>(params: DeleteParams<R>): R {
  return params.previousData ?? ({ id: params.id } as R);
}
