import { PAGE_SIZE_OPTIONS } from '../../../contract/constants';
import { SortType } from '../../../contract/enums';

/**
 * The one adapter between the spec's query string and react-admin's list parameters.
 *
 * Spec (address bar):   ?pageIndex=2&country=5&status=3&sort=account.firstName&order=1&pageSize=25
 * react-admin (lists):  ?page=2&perPage=25&sort=account.firstName&order=ASC&filter={"country":"5","status":"3"}
 *
 * `pageIndex` is 1-based in the address bar (the data provider sends page - 1); the first page,
 * the list's default page size and "not sorted" are left out of the URL. Only the list's own
 * filter names are read from and written to the URL; other parameters are kept as they are.
 * Filters that are not spec query parameters (the name search) never reach the URL: they are
 * handed back as `local` and kept by the list.
 */

export const PAGE_PARAM = 'pageIndex';
export const PAGE_SIZE_PARAM = 'pageSize';
export const SORT_PARAM = 'sort';
export const ORDER_PARAM = 'order';

export interface SpecQueryOptions {
  /** The spec's query parameters that are filters of this list (e.g. ['symbol', 'month']). */
  filters: readonly string[];
  /** The list's page size; another size is written as `pageSize`. */
  perPage: number;
}

export type LocalFilter = Record<string, unknown>;

const wireOrder: Record<string, string> = { ASC: String(SortType.Ascending), DESC: String(SortType.Descending) };
const listOrder: Record<string, 'ASC' | 'DESC'> = { [SortType.Ascending]: 'ASC', [SortType.Descending]: 'DESC' };

function positiveInteger(value: string | null): number | undefined {
  const n = Number(value);
  return value !== null && Number.isInteger(n) && n >= 1 ? n : undefined;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** The address bar's search as the search react-admin's list controller reads. */
export function toListSearch(specSearch: string, options: SpecQueryOptions, local: LocalFilter = {}): string {
  const spec = new URLSearchParams(specSearch);
  const list = new URLSearchParams();
  const page = positiveInteger(spec.get(PAGE_PARAM));
  if (page !== undefined && page > 1) list.set('page', String(page));
  const perPage = positiveInteger(spec.get(PAGE_SIZE_PARAM));
  if (perPage !== undefined && (PAGE_SIZE_OPTIONS as readonly number[]).includes(perPage)) list.set('perPage', String(perPage));
  const sort = spec.get(SORT_PARAM);
  const order = listOrder[spec.get(ORDER_PARAM) ?? ''];
  if (sort && order) {
    list.set('sort', sort);
    list.set('order', order);
  }
  const filter: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(local)) if (!isEmpty(value)) filter[name] = value;
  for (const name of options.filters) {
    const value = spec.get(name);
    if (!isEmpty(value)) filter[name] = value;
  }
  if (Object.keys(filter).length > 0) list.set('filter', JSON.stringify(filter));
  const text = list.toString();
  return text ? `?${text}` : '';
}

function parseFilter(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The search react-admin navigates to, written the spec's way over the current address bar's
 * search; `local` holds the filters that stay out of the URL.
 */
export function toSpecSearch(listSearch: string, currentSpecSearch: string, options: SpecQueryOptions): { search: string; local: LocalFilter } {
  const list = new URLSearchParams(listSearch);
  const spec = new URLSearchParams(currentSpecSearch);
  const setOrDelete = (name: string, value: string | undefined) => (value === undefined ? spec.delete(name) : spec.set(name, value));
  const filter = parseFilter(list.get('filter'));
  const local: LocalFilter = {};
  for (const [name, value] of Object.entries(filter)) if (!options.filters.includes(name) && !isEmpty(value)) local[name] = value;
  for (const name of options.filters) setOrDelete(name, isEmpty(filter[name]) ? undefined : String(filter[name]));
  const page = positiveInteger(list.get('page'));
  setOrDelete(PAGE_PARAM, page !== undefined && page > 1 ? String(page) : undefined);
  const sort = list.get('sort');
  const order = wireOrder[list.get('order') ?? ''];
  setOrDelete(SORT_PARAM, sort && order ? sort : undefined);
  setOrDelete(ORDER_PARAM, sort && order ? order : undefined);
  const perPage = positiveInteger(list.get('perPage'));
  setOrDelete(PAGE_SIZE_PARAM, perPage !== undefined && perPage !== options.perPage ? String(perPage) : undefined);
  const text = spec.toString();
  return { search: text ? `?${text}` : '', local };
}
