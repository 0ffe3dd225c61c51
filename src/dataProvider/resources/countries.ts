import { countryRoutes, type Country } from '../../../contract/api/country';
import { HttpError } from 'ra-core';
import { server } from '../../../contract/messages';
import { callRoute } from '../http';
import { asRecord, filterList, toListResult, wirePage } from '../paging';
import type { ResourceEndpoints } from '../types';

/** countries: POST /api/country/search, 32 per page (spec 9); filter `name`; one country by its id. */
export const countryEndpoints: ResourceEndpoints<Country> = {
  async getOne(params) {
    const page = await callRoute(countryRoutes.search, { body: { pageIndex: 0, pageSize: 1, filter: [{ name: 'id', value: String(params.id) }] } });
    const [country] = page.data;
    if (!country) throw new HttpError(server.notFound('Country'), 404);
    return { data: country };
  },
  async getList(params) {
    const body = { ...wirePage(params), filter: filterList(params.filter, { name: 'name' }) };
    return toListResult(await callRoute(countryRoutes.search, { body, ...(params.signal ? { signal: params.signal } : {}) }), asRecord);
  },
};
