import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { CustomerDashboard } from './CustomerDashboard';
import { CustomerOrderList } from './CustomerOrderList';
import { CustomerPresetParameters, CustomerStrategyRecord } from './CustomerStrategyList';
import { customerOrderEndpoints, customerStrategyEndpoints } from './endpoints';

/** The customer's own read-only pages (two react-admin resources: their orders and their strategies). */
export const customerSelf: BackOfficeModule = {
  resource: { name: 'customerOrders' },
  screens: {
    customerDashboard: CustomerDashboard,
    customerOrders: CustomerOrderList,
    customerStrategies: CustomerStrategyRecord,
    customerPreset: CustomerPresetParameters,
  },
  endpoints: customerOrderEndpoints,
};

export const customerSelfStrategies: BackOfficeModule = {
  resource: { name: 'customerStrategies' },
  endpoints: customerStrategyEndpoints,
};
