import { matchPath } from 'react-router-dom';
import { AccountType } from '../../contract/enums';

const { Admin, Employee, Agent, Customer } = AccountType;
const staff = [Admin, Employee] as const;

/**
 * Every signed-in route of spec 2 with the account types allowed on it. Resource modules attach
 * their screens to these paths (src/resources/index.ts); the guard reads the roles from here.
 */
export const backOfficePaths = {
  adminDashboard: { path: '/admin/dashboard', roles: [Admin] },
  adminPreset: { path: '/admin/parameters/preset', roles: [Admin] },
  adminStrategies: { path: '/admin/strategies', roles: [Admin] },
  adminOrders: { path: '/admin/orders', roles: [Admin] },
  employeeDashboard: { path: '/employee/dashboard', roles: [Employee] },
  employeePreset: { path: '/employee/parameters/preset', roles: [Employee] },
  employeeStrategies: { path: '/employee/strategies', roles: [Employee] },
  employeeOrders: { path: '/employee/orders', roles: [Employee] },
  employeeAdd: { path: '/employee/add', roles: [Admin] },
  employeeShow: { path: '/employee/:employeeId', roles: staff },
  employees: { path: '/employees', roles: staff },
  customerAdd: { path: '/customer/add', roles: staff },
  approvals: { path: '/customers/approval', roles: staff },
  approvalShow: { path: '/customers/approval/:customerId', roles: staff },
  customers: { path: '/customers', roles: staff },
  customerShow: { path: '/customer/:customerId', roles: staff },
  strategyEdit: { path: '/strategy/:strategyId', roles: staff },
  agentAdd: { path: '/agent/add', roles: [Admin] },
  agentShow: { path: '/agent/:agentId', roles: staff },
  agents: { path: '/agents', roles: staff },
  entryAudit: { path: '/activity/entry', roles: staff },
  exitAudit: { path: '/activity/exit', roles: staff },
  webhookSettings: { path: '/activity/webhook', roles: staff },
  accountHealth: { path: '/activity/account', roles: staff },
  agentDashboard: { path: '/agent/dashboard', roles: [Agent] },
  agentRegistrationIds: { path: '/agent/registrationids', roles: [Agent] },
  agentCustomers: { path: '/agent/customers', roles: [Agent] },
  customerDashboard: { path: '/customer/dashboard', roles: [Customer] },
  customerPreset: { path: '/customer/parameters/preset', roles: [Customer] },
  customerStrategies: { path: '/customer/strategies', roles: [Customer] },
  customerOrders: { path: '/customer/orders', roles: [Customer] },
} as const satisfies Record<string, { path: string; roles: readonly AccountType[] }>;

export type BackOfficePathName = keyof typeof backOfficePaths;

/** Fills the `:name` segments of a back-office path: `linkTo('customerShow', { customerId: 5 })`. */
export function linkTo(name: BackOfficePathName, params: Record<string, string | number> = {}): string {
  return backOfficePaths[name].path.replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(String(params[key] ?? '')));
}

/** The back-office entry a URL belongs to (static paths win over `:id` ones), or undefined. */
export function findBackOfficePath(pathname: string): BackOfficePathName | undefined {
  const names = Object.keys(backOfficePaths) as BackOfficePathName[];
  const matches = names.filter((name) => matchPath({ path: backOfficePaths[name].path, end: true }, pathname));
  return matches.find((name) => !backOfficePaths[name].path.includes(':')) ?? matches[0];
}

export function rolesOf(name: BackOfficePathName): readonly AccountType[] {
  return backOfficePaths[name].roles;
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
