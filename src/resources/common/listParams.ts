import type { GetListParams } from 'ra-core';
import { SortType } from '../../../contract/enums';
import type { ListSort } from './sort';

/** A ListSort as react-admin's sort (no field = not sorted). */
export function toRaSort(sort: ListSort | undefined): { field: string; order: 'ASC' | 'DESC' } {
  if (!sort) return { field: '', order: 'ASC' };
  return { field: sort.field, order: sort.type === SortType.Descending ? 'DESC' : 'ASC' };
}

/** react-admin's sort as the wire's `{ name, type }`, or undefined when not sorted. */
export function wireSort(params: Pick<GetListParams, 'sort'>): { name: string; type: SortType } | undefined {
  const field = params.sort?.field;
  if (!field) return undefined;
  return { name: field, type: params.sort?.order === 'DESC' ? SortType.Descending : SortType.Ascending };
}

/** The spec's `filter: [{ name, value }]` list from react-admin's filter object (empty values left out). */
export function filterList(filter: Record<string, unknown> | undefined, names: readonly string[]): { name: string; value: string | number }[] {
  const list: { name: string; value: string | number }[] = [];
  for (const name of names) {
    const value = filter?.[name];
    if (typeof value === 'string' && value !== '') list.push({ name, value });
    if (typeof value === 'number') list.push({ name, value });
  }
  return list;
}

/** The row number shown in the first column (1-based across pages). */
export function rowNumber(page: number, pageSize: number, index: number): number {
  return (page - 1) * pageSize + index + 1;
}
