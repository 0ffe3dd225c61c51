import { AccountType } from '../../contract/enums';

/** Which error flag of the notifications socket puts a red dot on an item. */
export type ErrorFlag = 'entry' | 'exit';

export interface MenuLink {
  kind: 'link';
  label: string;
  path: string;
  flag?: ErrorFlag;
}

export interface MenuGroup {
  kind: 'group';
  label: string;
  items: MenuLink[];
  /** The group shows a red dot when any of these flags is set. */
  flags?: ErrorFlag[];
}

export type MenuEntry = MenuLink | MenuGroup;

const link = (label: string, path: string, flag?: ErrorFlag): MenuLink => ({ kind: 'link', label: `app.menu.${label}`, path, ...(flag ? { flag } : {}) });

const clienteleStaff: MenuGroup = {
  kind: 'group',
  label: 'app.menu.clienteleStaff',
  items: [link('agentList', '/agents'), link('employeeList', '/employees'), link('customerList', '/customers')],
};

const activityItems = [
  link('entryAudit', '/activity/entry', 'entry'),
  link('exitAudit', '/activity/exit', 'exit'),
  link('accountHealthCheck', '/activity/account'),
];

const activityMonitor = (items: MenuLink[]): MenuGroup => ({
  kind: 'group',
  label: 'app.menu.activityMonitor',
  items,
  flags: ['entry', 'exit'],
});

/** The side menu of each account type, as spec 2 "Layout and side menu" lists it. */
export const menus: Record<AccountType, MenuEntry[]> = {
  // Spec 2 lists three customer entries; the dashboard comes first so a customer can get back to it (issue 28).
  [AccountType.Customer]: [
    link('dashboard', '/customer/dashboard'),
    link('presettingParameters', '/customer/parameters/preset'),
    link('strategySettingRecord', '/customer/strategies'),
    link('orderAlert', '/customer/orders'),
  ],
  [AccountType.Agent]: [
    link('dashboard', '/agent/dashboard'),
    link('registrationId', '/agent/registrationids'),
    link('customerList', '/agent/customers'),
  ],
  [AccountType.Admin]: [
    link('dashboard', '/admin/dashboard'),
    link('presettingParameters', '/admin/parameters/preset'),
    link('strategySettingRecord', '/admin/strategies'),
    link('orderAlert', '/admin/orders'),
    link('approvalStatus', '/customers/approval'),
    clienteleStaff,
    activityMonitor([...activityItems, link('webhookSettings', '/activity/webhook')]),
  ],
  [AccountType.Employee]: [
    link('dashboard', '/employee/dashboard'),
    link('strategySettingRecord', '/employee/strategies'),
    link('orderAlert', '/employee/orders'),
    link('approvalStatus', '/customers/approval'),
    clienteleStaff,
    activityMonitor(activityItems),
  ],
};

/** Any other role shows an empty menu. */
export function menuFor(accountType: number | undefined): MenuEntry[] {
  return menus[accountType as AccountType] ?? [];
}

/** The link to highlight: the longest menu path equal to the URL or a parent of it. */
export function currentMenuPath(entries: MenuEntry[], pathname: string): string | undefined {
  const paths = entries.flatMap((entry) => (entry.kind === 'link' ? [entry.path] : entry.items.map((item) => item.path)));
  const matching = paths.filter((path) => pathname === path || pathname.startsWith(`${path}/`));
  return matching.sort((a, b) => b.length - a.length)[0];
}
