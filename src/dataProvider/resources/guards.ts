import { guardRoutes, type StrategyGuardsBody } from '../../../contract/api/guards';
import { callRoute } from '../http';

/** Guards (issue 29): a strategy's maximum alert age. */
export const guardActions = {
  strategyGuards: (strategyId: string) => callRoute(guardRoutes.strategyGuards, { params: { id: strategyId } }),
  setStrategyGuards: (strategyId: string, body: StrategyGuardsBody) => callRoute(guardRoutes.setStrategyGuards, { params: { id: strategyId }, body }),
};
