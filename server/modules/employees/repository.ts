import { and, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Employee } from '../../../contract/api/employee';
import type { Paged } from '../../../contract/envelope';
import type { DbOrTx } from '../../db/client';
import { accounts, countries, employees } from '../../db/schema/index';
import { offsetOf, pageOf, type PageWindow } from '../../db/paging';
import { accountColumns, toAccount } from '../accounts/repository';

/** Staff records (employees and admins) whose account is not deleted, newest first. */
export async function listEmployees(db: DbOrTx, query: { employeeId?: number }, page: PageWindow): Promise<Paged<Employee>> {
  const conditions: SQL[] = [isNull(accounts.deletedAt)];
  if (query.employeeId !== undefined) conditions.push(eq(employees.id, query.employeeId));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select({ employeeId: employees.id, ...accountColumns })
      .from(employees)
      .innerJoin(accounts, eq(accounts.id, employees.accountId))
      .leftJoin(countries, eq(countries.id, accounts.countryId))
      .where(where)
      .orderBy(desc(employees.id))
      .limit(page.pageSize)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(employees).innerJoin(accounts, eq(accounts.id, employees.accountId)).where(where),
  ]);
  return pageOf(
    rows.map(({ employeeId, ...account }) => ({ id: employeeId, account: toAccount(account) })),
    total?.n ?? 0,
    page,
  );
}

export async function findEmployee(db: DbOrTx, employeeId: number): Promise<Employee | undefined> {
  return (await listEmployees(db, { employeeId }, { pageIndex: 0, pageSize: 1 })).data[0];
}
