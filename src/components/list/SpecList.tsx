import { useMemo, type ReactNode } from 'react';
import Stack from '@mui/material/Stack';
import { ListBase, ListContextProvider, RouterProviderContext, useListContext, type ListBaseProps, type SortPayload } from 'ra-core';
import { DEFAULT_PAGE_SIZE } from '../../../contract/constants';
import { useSpecQueryRouter } from './useSpecQueryRouter';

/** "Not sorted": the first state of the spec's three-state sort. */
export const NOT_SORTED: SortPayload = { field: '', order: 'ASC' };
const FILTER_DEBOUNCE_MS = 300;

/** Spec 4: a sortable column cycles none, ascending, descending, none. */
export function nextSort(current: SortPayload, requested: SortPayload): SortPayload {
  const fromDescendingToAscending = current.field === requested.field && current.order === 'DESC' && requested.order === 'ASC';
  return fromDescendingToAscending ? NOT_SORTED : requested;
}

function ThreeStateSort({ children }: { children: ReactNode }) {
  const list = useListContext();
  const value = useMemo(() => ({ ...list, setSort: (requested: SortPayload) => list.setSort(nextSort(list.sort, requested)) }), [list]);
  return <ListContextProvider value={value}>{children}</ListContextProvider>;
}

export interface SpecListProps extends Omit<ListBaseProps, 'children' | 'filters' | 'perPage' | 'sort' | 'storeKey' | 'disableSyncWithLocation'> {
  /** The spec's query parameters that filter this list (spec 2, "Query parameters"). */
  filters?: readonly string[];
  /** Rows per page when the URL says nothing (spec 9: 50, the Registration ID Record 100). */
  perPage?: number;
  children: ReactNode;
}

/**
 * A react-admin list (ListBase: data, filters, sort, paging in a ListContext) whose parameters live
 * in the spec's query string (./specQuery.ts), with the spec's three-state sort. Children read
 * the ListContext: ListHeader, filters, ListDataTable, ListPagination. See src/README.md.
 */
export function SpecList({ filters = [], perPage = DEFAULT_PAGE_SIZE, children, ...rest }: SpecListProps) {
  const router = useSpecQueryRouter({ filters, perPage });
  return (
    <RouterProviderContext.Provider value={router}>
      <ListBase perPage={perPage} sort={NOT_SORTED} storeKey={false} debounce={FILTER_DEBOUNCE_MS} {...rest}>
        <ThreeStateSort>
          <Stack spacing={2} sx={{ p: 2 }}>
            {children}
          </Stack>
        </ThreeStateSort>
      </ListBase>
    </RouterProviderContext.Provider>
  );
}
