import { strategyRoutes, type Strategy } from '../../../contract/api/strategy';
import { callRoute } from '../../dataProvider/http';
import { toListResult, wirePage } from '../../dataProvider/paging';
import type { ResourceEndpoints } from '../../dataProvider/types';
import { filterList, wireSort } from '../common/listParams';

/**
 * strategies: POST /api/strategy/search (filter names id, symbol), or POST /api/strategy/sorting/symbol
 * while the Symbol column is sorted; GET /api/strategy/{id}.
 */
export const strategyEndpoints: ResourceEndpoints<Strategy> = {
  async getList(params) {
    const page = wirePage(params);
    const sort = wireSort(params);
    const filter = filterList(params.filter, ['id', 'symbol']);
    if (sort && filter.length === 0) {
      return toListResult(await callRoute(strategyRoutes.sortBySymbol, { body: { ...page, type: sort.type } }), (row) => row);
    }
    const result = toListResult(await callRoute(strategyRoutes.search, { body: { ...page, filter } }), (row) => row);
    if (sort) result.data.sort((a, b) => a.symbol.localeCompare(b.symbol) * (sort.type === 2 ? -1 : 1));
    return result;
  },
  async getOne(params) {
    return { data: await callRoute(strategyRoutes.get, { params: { id: String(params.id) } }) };
  },
};
