import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { CustomerOrderList } from './CustomerOrderList';
import { CustomerStrategyList } from './CustomerStrategyList';

/** The customer's own orders (read-only). */
export const customerOrders: BackOfficeModule = {
  resource: { name: 'customerOrders', list: CustomerOrderList },
  routes: { customerOrders: 'list' },
};

/** The customer's strategies (read-only): 'Strategy Setting Record' and, with the trading parameters, 'Presetting Parameters'. */
export const customerStrategies: BackOfficeModule = {
  resource: { name: 'customerStrategies', list: CustomerStrategyList },
  routes: { customerStrategies: 'list', customerPreset: 'list' },
};
