import type { FastifyInstance } from 'fastify';
import { countryRoutes } from '../../../contract/api/country';
import type { Deps } from '../../deps';
import { registerRoute } from '../../http/route';
import { searchCountries } from './repository';

export function registerCountryRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, countryRoutes.search, async ({ body }) => searchCountries(deps.db, body.filter, body));
}
