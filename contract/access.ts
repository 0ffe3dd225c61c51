import { AccountType } from './enums';

/**
 * The permission table of ARCHITECTURE.md section 5, declared once. The server checks every route
 * against it; the web app's `canAccess` reads the same table.
 */
export const accessAreas = {
  /** login, 2FA, forgot/verify password, registration-ID verify, register, country search, OAuth. */
  public: [],
  /** GET /api/account, own password reset. */
  self: [AccountType.Admin, AccountType.Employee, AccountType.Agent, AccountType.Customer],
  /**
   * read customers, agents, employees, strategies, orders, audits, statistics, dashboards.
   * Decided grey area: employees read every agent's Registration IDs, but a pending (live) code
   * only as its last four characters; admins and the agent see it whole.
   */
  staffRead: [AccountType.Admin, AccountType.Employee],
  /**
   * create customer (POST /api/account type 1 + POST /api/customer). Decided grey area: only
   * admins set the profit share; an employee's customer gets the default (approval stays the
   * admins' second look).
   */
  staffCreateCustomer: [AccountType.Admin, AccountType.Employee],
  /** create agents and staff, status changes, password reset of others, group changes, credential edits, exports. */
  adminManage: [AccountType.Admin],
  /** strategies create/update/delete, manual long/short, close order, webhook group settings. */
  adminTrading: [AccountType.Admin],
  /** own agent data, own customers, own registration IDs and statistics. */
  agentOwn: [AccountType.Agent],
  /** registration ID for a chosen agent. */
  adminForAgent: [AccountType.Admin],
  /** own customer data, own orders and strategies (read-only). */
  customerOwn: [AccountType.Customer],
  /** notifications websocket. */
  notifications: [AccountType.Admin, AccountType.Employee],
} as const satisfies Record<string, readonly AccountType[]>;

export type AccessArea = keyof typeof accessAreas;
/** A route is open to the union of the roles of its areas. */
export type AccessRule = AccessArea | readonly AccessArea[];

export function rolesFor(rule: AccessRule): readonly AccountType[] {
  const areas: readonly AccessArea[] = typeof rule === 'string' ? [rule] : rule;
  const roles = new Set<AccountType>();
  for (const area of areas) for (const role of accessAreas[area]) roles.add(role);
  return [...roles];
}

export function isPublic(rule: AccessRule): boolean {
  return rolesFor(rule).length === 0;
}

export function isAllowed(rule: AccessRule, accountType: AccountType | undefined): boolean {
  if (isPublic(rule)) return true;
  return accountType !== undefined && rolesFor(rule).includes(accountType);
}

/** What the web app may show or do, per react-admin resource and action. */
export type ResourceAction = 'list' | 'show' | 'create' | 'edit' | 'delete' | 'export' | string;

export const resourceAccess: Record<string, Partial<Record<ResourceAction, AccessRule>>> = {
  strategies: { list: 'staffRead', show: 'staffRead', create: 'adminTrading', edit: 'adminTrading', delete: 'adminTrading', trade: 'adminTrading', pause: 'adminTrading', guard: 'adminTrading', closeAll: 'adminTrading' },
  /** Kill switches of the whole platform (issue 29): staff see them, admins pause, resume and close all. */
  platform: { show: 'staffRead', pause: 'adminTrading', closeAll: 'adminTrading' },
  orders: { list: 'staffRead', show: 'staffRead', close: 'adminTrading' },
  customers: {
    list: 'staffRead',
    show: 'staffRead',
    create: 'staffCreateCustomer',
    edit: 'adminManage',
    delete: 'adminManage',
    export: 'adminManage',
    block: 'adminManage',
    approve: 'adminManage',
    group: 'adminManage',
    password: 'adminManage',
    pause: 'adminTrading',
    guard: 'adminTrading',
    closeAll: 'adminTrading',
  },
  approvals: { list: 'staffRead', show: 'staffRead', approve: 'adminManage', reject: 'adminManage' },
  agents: { list: 'staffRead', show: 'staffRead', create: 'adminManage', edit: 'adminManage', delete: 'adminManage', status: 'adminManage', block: 'adminManage', password: 'adminManage' },
  employees: { list: 'staffRead', show: 'staffRead', create: 'adminManage', delete: 'adminManage', status: 'adminManage', block: 'adminManage', password: 'adminManage' },
  registrationIds: { list: 'agentOwn', create: ['agentOwn', 'adminForAgent'], createForAgent: 'adminForAgent' },
  agentCustomers: { list: 'agentOwn', show: 'agentOwn' },
  entryAudits: { list: 'staffRead', export: 'adminManage' },
  exitAudits: { list: 'staffRead', export: 'adminManage' },
  accountHealth: { list: 'staffRead' },
  // Spec 2 lets employees open /activity/webhook (read-only); only admins switch groups.
  webhookGroups: { list: 'staffRead', edit: 'adminTrading' },
  dashboard: { show: 'self' },
  /** The signed-in person's own password (the customer's pencil, the agent's profile). */
  ownAccount: { password: 'self' },
  customerSelf: { show: 'customerOwn', list: 'customerOwn' },
  customerOrders: { list: 'customerOwn' },
  customerStrategies: { list: 'customerOwn' },
};

/** The one `canAccess` used by the web app's authProvider and by `<CanAccess>`. */
export function canAccess(accountType: AccountType | undefined, params: { resource: string; action: ResourceAction }): boolean {
  const rule = resourceAccess[params.resource]?.[params.action];
  if (rule === undefined) return false;
  return isAllowed(rule, accountType);
}
