import { useDataProvider, type DataProvider } from 'ra-core';
import { createDataProvider } from './createDataProvider';
import { accountActions } from './resources/accounts';
import { accountHealthActions, accountHealthEndpoints } from './resources/accountHealth';
import { agentCustomerActions, agentCustomerEndpoints } from './resources/agentCustomers';
import { agentActions, agentEndpoints } from './resources/agents';
import { approvalActions, approvalEndpoints } from './resources/approvals';
import { auditActions, auditEndpoints } from './resources/audits';
import { countryEndpoints } from './resources/countries';
import { customerStrategyEndpoints } from './resources/customerStrategies';
import { customerActions, customerEndpoints } from './resources/customers';
import { employeeActions, employeeEndpoints } from './resources/employees';
import { customerOrderEndpoints, orderActions, orderEndpoints } from './resources/orders';
import { registrationIdActions, registrationIdEndpoints } from './resources/registrationIds';
import { reportActions } from './resources/reports';
import { strategyActions, strategyEndpoints } from './resources/strategies';
import { switchActions } from './resources/switches';
import { guardActions } from './resources/guards';
import { qualityActions } from './resources/quality';
import { resultsActions } from './resources/results';
import { webhookGroupEndpoints } from './resources/webhookGroups';
import type { EndpointTable } from './types';

/**
 * Every react-admin resource name and how it reaches the spec's endpoints. One file per resource
 * in ./resources (CRUD as `<name>Endpoints`, the other calls as `<name>Actions`).
 */
export const endpoints = {
  customers: customerEndpoints,
  approvals: approvalEndpoints,
  agents: agentEndpoints,
  employees: employeeEndpoints,
  strategies: strategyEndpoints,
  orders: orderEndpoints,
  registrationIds: registrationIdEndpoints,
  agentCustomers: agentCustomerEndpoints,
  entryAudits: auditEndpoints('entry'),
  exitAudits: auditEndpoints('exit'),
  accountHealth: accountHealthEndpoints,
  webhookGroups: webhookGroupEndpoints,
  customerOrders: customerOrderEndpoints,
  customerStrategies: customerStrategyEndpoints,
  countries: countryEndpoints,
} as const satisfies EndpointTable;

export type ResourceName = keyof typeof endpoints;

/** The platform's calls that are not CRUD, each a named method of the data provider. */
export const actions = {
  ...accountActions,
  ...customerActions,
  ...approvalActions,
  ...agentActions,
  ...employeeActions,
  ...strategyActions,
  ...orderActions,
  ...registrationIdActions,
  ...agentCustomerActions,
  ...auditActions,
  ...accountHealthActions,
  ...reportActions,
  ...switchActions,
  ...guardActions,
  ...qualityActions,
  ...resultsActions,
};

export const dataProvider = createDataProvider(endpoints, actions);
export type AppDataProvider = typeof dataProvider;

/** The data provider with its named actions typed: `useAppDataProvider().approveCustomer(customer)`. */
export function useAppDataProvider(): AppDataProvider {
  // react-admin's hook wraps the provider (error handling, 401s); the named actions keep their types.
  return useDataProvider<DataProvider & AppDataProvider>();
}

export { errorMessage, statusOf } from './errors';
export { readToken, removeToken, storeToken } from './token';
