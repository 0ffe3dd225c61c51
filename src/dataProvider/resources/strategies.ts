import { strategyRoutes, type Strategy } from '../../../contract/api/strategy';
import type { RouteBodyInput } from '../../../contract/route';
import { callRoute } from '../http';
import { deletedRecord, filterList, toListResult, wirePage, wireSort } from '../paging';
import type { ResourceEndpoints } from '../types';

/** The list filters (query parameters) and their names in POST /api/strategy/search. */
const FILTER_NAMES = { id: 'id', symbol: 'symbol' } as const;

export type StrategyInput = RouteBodyInput<typeof strategyRoutes.create>;
export type StrategyChanges = RouteBodyInput<typeof strategyRoutes.update>;

/**
 * strategies: POST /api/strategy/search (filter names id, symbol), or POST /api/strategy/sorting/symbol
 * while the Symbol column is sorted; GET, PATCH (groups, stop loss) and DELETE /api/strategy/{id}; POST /api/strategy.
 */
export const strategyEndpoints: ResourceEndpoints<Strategy, StrategyInput> = {
  async getList(params) {
    const page = wirePage(params);
    const sort = wireSort(params);
    const filter = filterList(params.filter, FILTER_NAMES);
    if (sort && filter.length === 0) {
      return toListResult(await callRoute(strategyRoutes.sortBySymbol, { body: { ...page, type: sort.type } }), (row) => row);
    }
    const result = toListResult(await callRoute(strategyRoutes.search, { body: { ...page, filter } }), (row) => row);
    // The search has no sort of its own: a filtered page is sorted by symbol here.
    if (sort) result.data.sort((a, b) => a.symbol.localeCompare(b.symbol) * (sort.type === 2 ? -1 : 1));
    return result;
  },
  async getOne(params) {
    return { data: await callRoute(strategyRoutes.get, { params: { id: String(params.id) } }) };
  },
  /** Answers the saved strategy (POST answers its id and webhook URL only). */
  async create({ data }) {
    const created = await callRoute(strategyRoutes.create, { body: data as StrategyInput });
    return { data: await callRoute(strategyRoutes.get, { params: { id: created.id } }) };
  },
  /** Only groups, stop loss and the exclusive customer change once saved (`data` is the PATCH body). */
  async update({ id, data }) {
    return { data: await callRoute(strategyRoutes.update, { params: { id: String(id) }, body: data as StrategyChanges }) };
  },
  async delete(params) {
    await callRoute(strategyRoutes.remove, { params: { id: String(params.id) } });
    return { data: deletedRecord(params) };
  },
};

export const strategyActions = {
  /** Admins' manual market orders for every eligible customer of the strategy. */
  openLong: (strategyId: string) => callRoute(strategyRoutes.openLong, { params: { id: strategyId } }),
  openShort: (strategyId: string) => callRoute(strategyRoutes.openShort, { params: { id: strategyId } }),
  /** Admins: a new webhook token; the old URL stops at once (audited). Answers the new URL. */
  rotateWebhook: (strategyId: string) => callRoute(strategyRoutes.rotateWebhook, { params: { id: strategyId } }),
};
