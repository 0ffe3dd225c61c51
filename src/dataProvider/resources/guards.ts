import { guardRoutes, type CustomerGuards, type StrategyGuardsBody } from '../../../contract/api/guards';
import { callRoute } from '../http';

/** Guards (issue 29): a strategy's maximum alert age and slippage; a customer's limits. */
export const guardActions = {
  strategyGuards: (strategyId: string) => callRoute(guardRoutes.strategyGuards, { params: { id: strategyId } }),
  setStrategyGuards: (strategyId: string, body: StrategyGuardsBody) => callRoute(guardRoutes.setStrategyGuards, { params: { id: strategyId }, body }),
  customerGuards: (customerId: number) => callRoute(guardRoutes.customerGuards, { params: { id: customerId } }),
  setCustomerGuards: (customerId: number, body: CustomerGuards) => callRoute(guardRoutes.setCustomerGuards, { params: { id: customerId }, body }),
};
