import type { FastifyInstance } from 'fastify';
import { earningsRoutes } from '../../../contract/api/earnings';
import type { Deps } from '../../deps';
import { badRequest } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { logStaffAction } from '../../lib/staff-log';
import { monthlyIncome, reportYears } from './service';
import { readEarningsSettings, writeEarningsSettings } from './settings';

export function registerEarningsRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, earningsRoutes.getSettings, async () => readEarningsSettings(deps.db));

  registerRoute(app, earningsRoutes.putSettings, async ({ body, auth }) =>
    deps.db.transaction(async (tx) => {
      const saved = await writeEarningsSettings(tx, deps.clock, body);
      await logStaffAction(tx, { actorAccountId: auth.accountId, action: 'update', targetType: 'settings', targetId: 'earnings', details: { ...saved } });
      return saved;
    }),
  );

  registerRoute(app, earningsRoutes.income, async ({ query }) => {
    const years = await reportYears(deps.db, deps.clock.now());
    if (!years.includes(query.year)) {
      throw badRequest(`There is no income report for ${query.year}; choose a year from ${years[0]} to ${years.at(-1)}`);
    }
    return { year: query.year, months: await monthlyIncome(deps.db, query.year), years };
  });
}
