import { AccountType } from '../../contract/enums';

/** Where each account type lands after login (spec 2). */
export const landingPaths: Record<AccountType, string> = {
  [AccountType.Admin]: '/admin/dashboard',
  [AccountType.Employee]: '/employee/dashboard',
  [AccountType.Agent]: '/agent/dashboard',
  [AccountType.Customer]: '/customer/dashboard',
};

export const LOGIN_PATH = '/auth/login';
export const STAFF_LOGIN_PATH = '/admin/login';

export function landingPath(accountType: number): string {
  return landingPaths[accountType as AccountType] ?? LOGIN_PATH;
}
