import { AccountType } from '../../contract/enums';

const { Admin, Employee, Agent, Customer } = AccountType;
const everyone = [Admin, Employee, Agent, Customer];
const staff = [Admin, Employee];

/**
 * Spec section 7's endpoints with the roles ARCHITECTURE section 5 gives them, written out
 * independently of the code's declarations. `exact` must match the declared roles; `atLeast` /
 * `never` bound them where the architecture leaves room (an agent or customer may read a record by
 * id only when it is their own: the walk checks someone else's answers 404).
 */
export interface SpecRoute {
  route: string;
  exact?: AccountType[];
  atLeast?: AccountType[];
  never?: AccountType[];
}

export const specRoutes: SpecRoute[] = [
  // Account and security
  { route: 'GET /api/account', exact: everyone },
  { route: 'POST /api/account', exact: staff },
  { route: 'POST /api/security/login', exact: [] },
  { route: 'POST /api/security/email/requestverification', exact: [] },
  { route: 'POST /api/security/email/verify', exact: [] },
  { route: 'POST /api/security/password/forgot', exact: [] },
  { route: 'POST /api/security/password/verify', exact: [] },
  { route: 'POST /api/security/password/reset', exact: everyone },
  { route: 'POST /api/security/password/reset/:id', exact: [Admin] },
  { route: 'PATCH /api/security/status/:accountId', exact: [Admin] },
  { route: 'POST /api/security/registrationid/verify', exact: [] },
  { route: 'POST /api/security/register', exact: [] },
  { route: 'GET /api/security/:exchange/oauth/:tempAccountId', exact: [] },
  // Customers
  { route: 'POST /api/customer', exact: staff },
  { route: 'GET /api/customer', exact: [Customer] },
  { route: 'GET /api/customer/:id', atLeast: staff, never: [Agent] },
  { route: 'PUT /api/customer/:id/short', exact: [Admin] },
  { route: 'DELETE /api/customer/:id', exact: [Admin] },
  { route: 'PATCH /api/customer/:id/group', exact: [Admin] },
  { route: 'POST /api/customer/filter', exact: staff },
  { route: 'GET /api/customer/statistics', exact: staff },
  { route: 'POST /api/customer/search/exclusive', exact: staff },
  { route: 'POST /api/customer/search/fullname', exact: staff },
  { route: 'POST /api/customer/group/bulk', exact: [Admin] },
  { route: 'POST /api/customer/export', exact: [Admin] },
  // Agents and employees
  { route: 'GET /api/agent', exact: [Agent] },
  { route: 'GET /api/agent/:agentId', atLeast: staff, never: [Customer] },
  { route: 'GET /api/agent/all', exact: staff },
  { route: 'POST /api/agent/filter', exact: staff },
  { route: 'GET /api/agent/statistics', exact: staff },
  { route: 'POST /api/agent', exact: [Admin] },
  { route: 'PUT /api/agent', exact: [Admin] },
  { route: 'DELETE /api/agent/:id', exact: [Admin] },
  { route: 'GET /api/agent/dashboard/statistics', atLeast: [Agent], never: [Customer] },
  { route: 'GET /api/agent/dashboard/statistics/:agentId', atLeast: staff, never: [Customer] },
  { route: 'POST /api/agent/customers/own/filter', exact: [Agent] },
  { route: 'POST /api/agent/customers/own/search/fullname', exact: [Agent] },
  { route: 'GET /api/agent/customers/own/statistics', exact: [Agent] },
  { route: 'GET /api/employee/all', exact: staff },
  { route: 'GET /api/employee/:id', exact: staff },
  { route: 'DELETE /api/employee/:id', exact: [Admin] },
  { route: 'POST /api/employee', exact: [Admin] },
  { route: 'GET /api/employee/dashboard/statistics', exact: staff },
  // Registration IDs
  { route: 'POST /api/registrationid/search', atLeast: [Agent], never: [Customer] },
  { route: 'GET /api/registrationid/statistics', atLeast: [Agent], never: [Customer] },
  { route: 'POST /api/registrationid', atLeast: [Agent], never: [Customer, Employee] },
  { route: 'POST /api/registrationid/as/:agentId', exact: [Admin] },
  // Strategies and orders
  { route: 'POST /api/strategy', exact: [Admin] },
  { route: 'PATCH /api/strategy/:id', exact: [Admin] },
  { route: 'GET /api/strategy/:id', exact: staff },
  { route: 'DELETE /api/strategy/:id', exact: [Admin] },
  { route: 'POST /api/strategy/:id/long', exact: [Admin] },
  { route: 'POST /api/strategy/:id/short', exact: [Admin] },
  { route: 'POST /api/strategy/search', exact: staff },
  { route: 'POST /api/strategy/sorting/symbol', exact: staff },
  { route: 'GET /api/order/symbol/all', exact: staff },
  { route: 'GET /api/order/transactionids/all', exact: staff },
  { route: 'POST /api/order/search', exact: staff },
  { route: 'GET /api/order/statistics', exact: staff },
  { route: 'PATCH /api/order/:id', exact: [Admin] },
  // Audits, webhooks, countries
  { route: 'POST /api/error/search', exact: staff },
  { route: 'GET /api/error/statistics', exact: staff },
  { route: 'POST /api/error/export', exact: [Admin] },
  { route: 'POST /api/exit/search', exact: staff },
  { route: 'GET /api/exit/statistics', exact: staff },
  { route: 'POST /api/exit/export', exact: [Admin] },
  // ARCHITECTURE 5: "read ... for staff"; spec 2 lets employees open /activity/webhook read-only.
  { route: 'GET /api/receiveonly/all', exact: staff },
  { route: 'PATCH /api/receiveonly/:id', exact: [Admin] },
  { route: 'POST /api/country/search', exact: [] },
];
