import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

export const PAGE_PARAM = 'pageIndex';

export type FilterValues<K extends string> = Partial<Record<K, string>>;

export interface ListFilters<K extends string> {
  /** Filter values read from the query string (absent = not filtered). */
  filters: FilterValues<K>;
  /** 1-based page from `?pageIndex=` (the UI's numbering; the data provider sends page - 1). */
  page: number;
  /** Sets one filter (empty or undefined removes it) and goes back to page 1. */
  setFilter: (name: K, value: string | number | undefined | null) => void;
  /** Sets several filters at once, back to page 1. */
  setFilters: (values: Partial<Record<K, string | number | undefined | null>>) => void;
  setPage: (page: number) => void;
  /** Clears every filter and the page (the reset-filters button). */
  reset: () => void;
}

/**
 * Filters and page index live in the URL query and are restored from it (spec 4 "Lists"). Only the
 * names passed in are read or written; other query parameters are kept.
 */
export function useListFilters<K extends string>(names: readonly K[]): ListFilters<K> {
  const [search, setSearch] = useSearchParams();
  const key = names.join('|');

  const filters = useMemo(() => {
    const values: FilterValues<K> = {};
    for (const name of key.split('|') as K[]) {
      const value = search.get(name);
      if (value !== null && value !== '') values[name] = value;
    }
    return values;
  }, [search, key]);

  const rawPage = Number(search.get(PAGE_PARAM));
  const page = Number.isInteger(rawPage) && rawPage >= 1 ? rawPage : 1;

  const setFilters = useCallback(
    (values: Partial<Record<K, string | number | undefined | null>>) => {
      setSearch((current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(values) as [K, string | number | undefined | null][]) {
          if (value === undefined || value === null || value === '') next.delete(name);
          else next.set(name, String(value));
        }
        next.delete(PAGE_PARAM);
        return next;
      });
    },
    [setSearch],
  );

  const setFilter = useCallback((name: K, value: string | number | undefined | null) => setFilters({ [name]: value } as Partial<Record<K, string>>), [setFilters]);

  const setPage = useCallback(
    (nextPage: number) => {
      setSearch((current) => {
        const next = new URLSearchParams(current);
        if (nextPage <= 1) next.delete(PAGE_PARAM);
        else next.set(PAGE_PARAM, String(nextPage));
        return next;
      });
    },
    [setSearch],
  );

  const reset = useCallback(() => {
    setSearch((current) => {
      const next = new URLSearchParams(current);
      for (const name of key.split('|')) next.delete(name);
      next.delete(PAGE_PARAM);
      return next;
    });
  }, [setSearch, key]);

  return { filters, page, setFilter, setFilters, setPage, reset };
}
