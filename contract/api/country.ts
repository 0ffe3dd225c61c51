import { z } from 'zod';
import { COUNTRY_PAGE_SIZE } from '../constants';
import { filterItem, pageRequestOf } from '../common';
import { pagedOf } from '../envelope';
import { defineRoute } from '../route';

export const countryRef = z.object({
  id: z.number().int(),
  name: z.string(),
  imageUrl: z.string(),
  countryCode: z.string(),
});
export type CountryRef = z.infer<typeof countryRef>;

export const country = countryRef.extend({ dialCode: z.string() });
export type Country = z.infer<typeof country>;

export const countrySearchBody = pageRequestOf(COUNTRY_PAGE_SIZE).extend({
  filter: z.array(filterItem).max(20, 'filter may list at most 20 items').default([]),
});

export const countryRoutes = {
  search: defineRoute({
    method: 'POST',
    path: '/api/country/search',
    access: 'public',
    tag: 'countries',
    summary: 'Search countries by part of the name (filter name "name") or by id (filter name "id"); 32 per page by default',
    body: countrySearchBody,
    data: pagedOf(country),
  }),
};
