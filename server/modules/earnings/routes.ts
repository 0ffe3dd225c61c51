import type { FastifyInstance } from 'fastify';
import { earningsRoutes } from '../../../contract/api/earnings';
import type { Deps } from '../../deps';
import { badRequest } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { monthlyIncome, reportYears } from './service';
import { readEarningsSettings, writeEarningsSettings } from './settings';

export function registerEarningsRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, earningsRoutes.getSettings, async () => readEarningsSettings(deps.db));

  registerRoute(app, earningsRoutes.putSettings, async ({ body }) => writeEarningsSettings(deps.db, deps.clock, body));

  registerRoute(app, earningsRoutes.income, async ({ query }) => {
    const years = await reportYears(deps.db, deps.clock.now());
    if (!years.includes(query.year)) {
      throw badRequest(`There is no income report for ${query.year}; choose a year from ${years[0]} to ${years.at(-1)}`);
    }
    return { year: query.year, months: await monthlyIncome(deps.db, query.year), years };
  });
}
