import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { CustomerDashboard } from './CustomerDashboard';
import { CustomerOrderList } from './CustomerOrderList';
import { CustomerPresetParameters, CustomerStrategyRecord } from './CustomerStrategyList';

/** The customer's own read-only pages (two react-admin resources: their orders and their strategies). */
export const customerSelf: BackOfficeModule = {
  resource: { name: 'customerOrders' },
  screens: {
    customerDashboard: CustomerDashboard,
    customerOrders: CustomerOrderList,
    customerStrategies: CustomerStrategyRecord,
    customerPreset: CustomerPresetParameters,
  },
};

export const customerSelfStrategies: BackOfficeModule = {
  resource: { name: 'customerStrategies' },
};
