import type { Paged } from '../../contract/envelope';

export interface PageWindow {
  pageIndex: number;
  pageSize: number;
}

export function offsetOf(page: PageWindow): number {
  return page.pageIndex * page.pageSize;
}

export function pageOf<T>(rows: T[], totalCount: number, page: PageWindow): Paged<T> {
  return { data: rows, paging: { totalCount, pageIndex: page.pageIndex, pageSize: page.pageSize } };
}

/** Escapes % and _ so user text is matched literally inside ILIKE patterns. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The value of a `filter: [{ name, value }]` entry, if present and not empty. */
export function filterValue(filter: Array<{ name: string; value: unknown }>, name: string): string | undefined {
  const entry = filter.find((f) => f.name === name);
  if (!entry || entry.value === null || entry.value === undefined || entry.value === '') return undefined;
  return String(entry.value);
}
