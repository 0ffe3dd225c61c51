import { useCallback, useMemo } from 'react';
import { PAGE_SIZE_OPTIONS } from '../../../contract/constants';
import { useListFilters } from '../../components/useListFilters';
import { nextSort, sortFromQuery, type ListSort } from './sort';

const EXTRA = ['sort', 'order', 'pageSize'] as const;
type Extra = (typeof EXTRA)[number];

/**
 * A list's filters (the spec's query parameter names), page, page size and three-state sort, all
 * kept in the URL so a reload restores them. Any change but the page goes back to page 1.
 */
export function useListState<K extends string>(names: readonly K[], defaultPageSize: number) {
  const all = useMemo(() => [...names, ...EXTRA] as (K | Extra)[], [names]);
  const list = useListFilters<K | Extra>(all);
  const { sort: sortField, order, pageSize: size, ...rest } = list.filters;
  const filters = rest as Partial<Record<K, string>>;
  const sort = sortFromQuery(sortField, order);
  const requested = Number(size);
  const pageSize = (PAGE_SIZE_OPTIONS as readonly number[]).includes(requested) ? requested : defaultPageSize;
  const { setFilters } = list;
  const toggleSort = useCallback(
    (field: string) => {
      const next: ListSort | undefined = nextSort(sort, field);
      setFilters({ sort: next?.field, order: next?.type } as Partial<Record<K | Extra, string | number | undefined>>);
    },
    [sort, setFilters],
  );
  const setPageSize = useCallback((value: number) => setFilters({ pageSize: value } as Partial<Record<K | Extra, number>>), [setFilters]);
  const setFilter = useCallback((name: K, value: string | number | undefined | null) => list.setFilter(name, value), [list]);
  return { filters, page: list.page, pageSize, sort, setFilter, setFilters: list.setFilters as (values: Partial<Record<K, string | number | undefined | null>>) => void, setPage: list.setPage, setPageSize, toggleSort, reset: list.reset };
}
export type ListState<K extends string> = ReturnType<typeof useListState<K>>;
