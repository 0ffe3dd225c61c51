import { qualityRoutes } from '../../../contract/api/quality';
import { callRoute } from '../http';

/** Execution quality (issue 29): an order's copies, a strategy's summary and its copies for export. */
export const qualityActions = {
  orderQuality: (orderId: number) => callRoute(qualityRoutes.order, { params: { id: orderId } }),
  strategyQuality: (strategyId: string, days: number) => callRoute(qualityRoutes.strategy, { params: { id: strategyId }, query: { days } }),
  strategyQualityRows: (strategyId: string, days: number) => callRoute(qualityRoutes.strategyExecutions, { params: { id: strategyId }, query: { days } }),
};
