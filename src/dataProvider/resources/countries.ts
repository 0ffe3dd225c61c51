import { countryRoutes, type Country } from '../../../contract/api/country';
import { callRoute } from '../http';
import { asRecord, filterList, toListResult, wirePage } from '../paging';
import type { ResourceEndpoints } from '../types';

/** countries: POST /api/country/search, 32 per page (spec 9); filter `name`. */
export const countryEndpoints: ResourceEndpoints<Country> = {
  async getList(params) {
    const body = { ...wirePage(params), filter: filterList(params.filter, { name: 'name' }) };
    return toListResult(await callRoute(countryRoutes.search, { body, ...(params.signal ? { signal: params.signal } : {}) }), asRecord);
  },
};
