import { AccountType } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { employees } from '../../db/schema/index';
import { badRequest, conflict, notFound } from '../../http/errors';
import { logStaffAction } from '../../lib/staff-log';
import { findAccountById, isUniqueViolation } from '../accounts/repository';
import { deleteAccount } from '../accounts/service';
import { amountEarned } from '../earnings/service';
import { countAgents, countCustomers, sumCustomerWallets } from '../agents/repository';
import { findEmployee } from './repository';

type ServiceDeps = Pick<Deps, 'db' | 'clock' | 'sessionCache'>;

const STAFF_TYPES: readonly number[] = [AccountType.Employee, AccountType.Admin];

export const employeeNotFound = () => notFound(messages.notFound('Employee'));

/** Makes an account created with accountType 3 (User) or 4 (Super Admin) a staff member. */
export async function createEmployee(deps: ServiceDeps, actorAccountId: number, accountId: number): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const account = await findAccountById(tx, accountId);
    if (!account) throw notFound(messages.notFound('Account'));
    if (!STAFF_TYPES.includes(account.accountType)) {
      throw badRequest('Invalid account type: create the account with accountType 3 (User) or 4 (Super Admin) before adding it as staff');
    }
    let employeeId: number;
    try {
      const [row] = await tx.insert(employees).values({ accountId, datetimeInserted: deps.clock.now() }).returning({ id: employees.id });
      employeeId = row!.id;
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('This account is already a staff member');
      throw error;
    }
    await logStaffAction(tx, { actorAccountId, action: 'create', targetType: 'employee', targetId: employeeId, details: { accountId, accountType: account.accountType } });
    return employeeId;
  });
}

/** Soft-deletes the staff member's account (refused for one's own, by deleteAccount). */
export async function deleteEmployee(deps: ServiceDeps, actorAccountId: number, employeeId: number): Promise<void> {
  const employee = await findEmployee(deps.db, employeeId);
  if (!employee) throw employeeNotFound();
  await deleteAccount(deps, actorAccountId, employee.account.id);
}

/** The staff dashboard: live counts, every fee earned so far, and the customers' wallets. */
export async function employeeDashboard(deps: Pick<Deps, 'db'>) {
  const [totalAgents, totalCustomers, totalAmountEarned, totalWalletAmount] = await Promise.all([
    countAgents(deps.db),
    countCustomers(deps.db),
    amountEarned(deps.db),
    sumCustomerWallets(deps.db),
  ]);
  return { totalAgents, totalCustomers, totalAmountEarned, totalWalletAmount };
}
