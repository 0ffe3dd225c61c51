import { useCallback, useMemo, useState } from 'react';
import { useRouterProvider, type RouterNavigateFunction, type RouterProvider } from 'ra-core';
import { toListSearch, toSpecSearch, type LocalFilter, type SpecQueryOptions } from './specQuery';

/**
 * react-admin's router seen through the spec's query string: inside a list, react-admin's list
 * controller reads and writes its usual parameters (page, perPage, sort, order, filter) while the
 * address bar keeps the spec's (pageIndex, the spec's filter names, sort, order, pageSize).
 * Only a navigation that changes the search alone is translated; links and paths pass through.
 */
export function useSpecQueryRouter(options: SpecQueryOptions): RouterProvider {
  const parent = useRouterProvider();
  const [local, setLocal] = useState<LocalFilter>({});
  const key = JSON.stringify(options);
  return useMemo(() => {
    const settled: SpecQueryOptions = JSON.parse(key) as SpecQueryOptions;
    function useLocation() {
      const location = parent.useLocation();
      const search = toListSearch(location.search, settled, local);
      return useMemo(() => ({ ...location, search }), [location, search]);
    }
    function useNavigate(): RouterNavigateFunction {
      const navigate = parent.useNavigate();
      const current = parent.useLocation().search;
      return useCallback<RouterNavigateFunction>(
        (to, navigateOptions) => {
          if (typeof to !== 'object' || to.pathname !== undefined || to.search === undefined) {
            navigate(to, navigateOptions);
            return;
          }
          const next = toSpecSearch(to.search, current, settled);
          setLocal((previous) => (JSON.stringify(previous) === JSON.stringify(next.local) ? previous : next.local));
          if (next.search !== current) navigate({ search: next.search }, navigateOptions);
        },
        [navigate, current],
      );
    }
    return { ...parent, useLocation, useNavigate };
  }, [parent, key, local]);
}
