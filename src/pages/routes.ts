import { matchPath } from 'react-router-dom';
import { AccountType } from '../../contract/enums';

/** What a screen needs: `canAccess(accountType, access)` of contract/access.ts (the one role table). */
export interface ScreenAccess {
  resource: string;
  action: string;
}

interface BackOfficePath {
  path: string;
  access: ScreenAccess;
  /** The account type whose own address space the URL is (spec 2: /admin/... for admins, /employee/... for employees). */
  owner?: AccountType;
}

const screen = (path: string, resource: string, action: string, owner?: AccountType): BackOfficePath => ({ path, access: { resource, action }, ...(owner ? { owner } : {}) });
const { Admin, Employee, Agent } = AccountType;

/**
 * Every signed-in route of spec 2: its URL, the resource and action `canAccess` is asked about,
 * and for the role-prefixed URLs the account type they belong to. Resource modules attach their
 * views to these names (src/resources/index.ts); the layout's guard checks them.
 */
export const backOfficePaths = {
  adminDashboard: screen('/admin/dashboard', 'dashboard', 'show', Admin),
  adminPreset: screen('/admin/parameters/preset', 'strategies', 'create', Admin),
  adminStrategies: screen('/admin/strategies', 'strategies', 'list', Admin),
  adminOrders: screen('/admin/orders', 'orders', 'list', Admin),
  employeeDashboard: screen('/employee/dashboard', 'dashboard', 'show', Employee),
  employeePreset: screen('/employee/parameters/preset', 'strategies', 'list', Employee),
  employeeStrategies: screen('/employee/strategies', 'strategies', 'list', Employee),
  employeeOrders: screen('/employee/orders', 'orders', 'list', Employee),
  employeeAdd: screen('/employee/add', 'employees', 'create'),
  employeeShow: screen('/employee/:id', 'employees', 'show'),
  employees: screen('/employees', 'employees', 'list'),
  customerAdd: screen('/customer/add', 'customers', 'create'),
  approvals: screen('/customers/approval', 'approvals', 'list'),
  approvalShow: screen('/customers/approval/:id', 'approvals', 'show'),
  customers: screen('/customers', 'customers', 'list'),
  customerShow: screen('/customer/:id', 'customers', 'show'),
  strategyEdit: screen('/strategy/:id', 'strategies', 'show'),
  agentAdd: screen('/agent/add', 'agents', 'create'),
  agentShow: screen('/agent/:id', 'agents', 'show'),
  agents: screen('/agents', 'agents', 'list'),
  entryAudit: screen('/activity/entry', 'entryAudits', 'list'),
  exitAudit: screen('/activity/exit', 'exitAudits', 'list'),
  webhookSettings: screen('/activity/webhook', 'webhookGroups', 'list'),
  accountHealth: screen('/activity/account', 'accountHealth', 'list'),
  agentDashboard: screen('/agent/dashboard', 'dashboard', 'show', Agent),
  agentRegistrationIds: screen('/agent/registrationids', 'registrationIds', 'list'),
  agentCustomers: screen('/agent/customers', 'agentCustomers', 'list'),
  customerDashboard: screen('/customer/dashboard', 'customerSelf', 'show'),
  customerPreset: screen('/customer/parameters/preset', 'customerSelf', 'list'),
  customerStrategies: screen('/customer/strategies', 'customerSelf', 'list'),
  customerOrders: screen('/customer/orders', 'customerSelf', 'list'),
} as const satisfies Record<string, BackOfficePath>;

export type BackOfficePathName = keyof typeof backOfficePaths;

/** Fills the `:name` segments of a back-office path: `linkTo('customerShow', { id: 5 })`. */
export function linkTo(name: BackOfficePathName, params: Record<string, string | number> = {}): string {
  return backOfficePaths[name].path.replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(String(params[key] ?? '')));
}

/** The back-office entry a URL belongs to (static paths win over `:id` ones), or undefined. */
export function findBackOfficePath(pathname: string): BackOfficePathName | undefined {
  const names = Object.keys(backOfficePaths) as BackOfficePathName[];
  const matches = names.filter((name) => matchPath({ path: backOfficePaths[name].path, end: true }, pathname));
  return matches.find((name) => !backOfficePaths[name].path.includes(':')) ?? matches[0];
}

/** The public routes of spec 2. */
export const publicPaths = {
  login: '/auth/login',
  staffLogin: '/admin/login',
  register: '/auth/register',
  connect: '/auth/connect',
  exchangeSuccess: '/auth/exchange/success',
  terms: '/terms',
  privacy: '/privacy',
} as const;
