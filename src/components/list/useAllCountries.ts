import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'ra-core';
import type { Country } from '../../../contract/api/country';
import { COUNTRY_PAGE_SIZE } from '../../../contract/constants';

/** Every country for the country filters, read 32 per page (spec 9) once per session. */
export function useAllCountries() {
  const dataProvider = useDataProvider();
  return useQuery({
    queryKey: ['countries', 'all'],
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      const countries: Country[] = [];
      for (let page = 1; ; page += 1) {
        // A page that unmounts (or a log-out) stops the paging.
        signal.throwIfAborted();
        const { data, total } = await dataProvider.getList<Country>('countries', { pagination: { page, perPage: COUNTRY_PAGE_SIZE }, sort: { field: 'name', order: 'ASC' }, filter: {}, signal });
        countries.push(...data);
        if (data.length < COUNTRY_PAGE_SIZE || countries.length >= (total ?? 0)) return countries;
      }
    },
  });
}
