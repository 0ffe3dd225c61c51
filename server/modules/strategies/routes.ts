import type { FastifyInstance } from 'fastify';
import { strategyRoutes } from '../../../contract/api/strategy';
import { AccountType, EntryDirection, SortType } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { filterValue } from '../../db/paging';
import { notFound } from '../../http/errors';
import { registerRoute, type AuthContext } from '../../http/route';
import { bySymbol, getStrategy, newestFirst, searchStrategies, type StrategyView } from './repository';
import { createStrategy, deleteStrategy, openManual, rotateWebhookToken, updateStrategy } from './service';
import { exchangeSymbolCheck } from './symbols';
import { searchCustomerStrategies } from './customer';

export function registerStrategyRoutes(app: FastifyInstance, deps: Deps): void {
  const symbolExists = exchangeSymbolCheck(deps);
  /** Only admins read webhook URLs: they trade. */
  const viewFor = (auth: AuthContext): StrategyView => ({
    publicUrl: deps.config.publicUrl,
    secrets: deps.secrets,
    revealWebhook: auth.accountType === AccountType.Admin,
  });

  registerRoute(app, strategyRoutes.create, async ({ body, auth }) => createStrategy(deps, symbolExists, body, auth.accountId));

  registerRoute(app, strategyRoutes.get, async ({ params, auth }) => {
    const strategy = await getStrategy(deps.db, viewFor(auth), params.id);
    if (!strategy) throw notFound(messages.notFound('Strategy'));
    return strategy;
  });

  registerRoute(app, strategyRoutes.update, async ({ params, body, auth }) => updateStrategy(deps, viewFor(auth), params.id, body, auth.accountId));

  registerRoute(app, strategyRoutes.remove, async ({ params, auth }) => {
    await deleteStrategy(deps, params.id, auth.accountId);
    return { success: true as const };
  });

  registerRoute(app, strategyRoutes.search, async ({ body, auth }) =>
    searchStrategies(deps.db, viewFor(auth), { id: filterValue(body.filter, 'id'), symbol: filterValue(body.filter, 'symbol') }, body, newestFirst),
  );

  registerRoute(app, strategyRoutes.sortBySymbol, async ({ body, auth }) => searchStrategies(deps.db, viewFor(auth), {}, body, bySymbol(body.type === SortType.Descending)));

  registerRoute(app, strategyRoutes.openLong, async ({ params, auth }) => openManual(deps, params.id, EntryDirection.Long, auth.accountId));
  registerRoute(app, strategyRoutes.openShort, async ({ params, auth }) => openManual(deps, params.id, EntryDirection.Short, auth.accountId));

  registerRoute(app, strategyRoutes.rotateWebhook, async ({ params, auth }) => rotateWebhookToken(deps, params.id, auth.accountId));

  registerRoute(app, strategyRoutes.customerSearch, async ({ body, auth }) => searchCustomerStrategies(deps.db, viewFor(auth), auth.accountId, body));
}
