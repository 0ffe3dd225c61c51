import { SortType } from '../../../contract/enums';

/** A list's sort: one field, ascending (1) or descending (2); undefined = not sorted. */
export interface ListSort {
  field: string;
  type: SortType;
}

/** Three-state sort (spec 4): none, then 1 (ascending), then 2 (descending), then none again. */
export function nextSort(current: ListSort | undefined, field: string): ListSort | undefined {
  if (!current || current.field !== field) return { field, type: SortType.Ascending };
  if (current.type === SortType.Ascending) return { field, type: SortType.Descending };
  return undefined;
}

/** `sort` and `order` query values as a ListSort (anything else = not sorted). */
export function sortFromQuery(field: string | undefined, order: string | undefined): ListSort | undefined {
  if (!field) return undefined;
  if (order === String(SortType.Ascending)) return { field, type: SortType.Ascending };
  if (order === String(SortType.Descending)) return { field, type: SortType.Descending };
  return undefined;
}
