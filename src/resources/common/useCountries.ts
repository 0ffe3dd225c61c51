import { useQuery } from '@tanstack/react-query';
import { countryRoutes, type Country } from '../../../contract/api/country';
import { MAX_PAGE_SIZE } from '../../../contract/constants';
import { callRoute } from '../../dataProvider/http';

async function allCountries(): Promise<Country[]> {
  const countries: Country[] = [];
  for (let pageIndex = 0; ; pageIndex += 1) {
    const page = await callRoute(countryRoutes.search, { body: { pageIndex, pageSize: MAX_PAGE_SIZE, filter: [] } });
    countries.push(...page.data);
    if (page.data.length === 0 || countries.length >= page.paging.totalCount) return countries;
  }
}

/** Every country (for the country filters), loaded once per session. */
export function useCountries() {
  return useQuery({ queryKey: ['countries', 'all'], queryFn: allCountries, staleTime: Infinity });
}
