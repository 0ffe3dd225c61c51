import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { customerStatistics as statisticsSchema, exclusiveCandidate } from '../../../contract/api/customer';
import type { Paged } from '../../../contract/envelope';
import { AccountStatus, AccountType, CustomerGroup } from '../../../contract/enums';
import type { DbOrTx } from '../../db/client';
import { offsetOf, pageOf, type PageWindow } from '../../db/paging';
import { accounts, customers } from '../../db/schema/index';
import { customerConditions } from './conditions';

const liveCustomerAccount = and(eq(accounts.id, customers.accountId), isNull(accounts.deletedAt), eq(accounts.accountType, AccountType.Customer));

/** Live customers per account status (optionally of one agent). */
export async function customerStatusCounts(db: DbOrTx, agentId?: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ status: customers.accountStatus, n: count() })
    .from(customers)
    .where(and(eq(customers.accountLive, true), agentId === undefined ? undefined : eq(customers.agentId, agentId)))
    .groupBy(customers.accountStatus);
  return new Map(rows.flatMap((row) => (row.status === null ? [] : [[row.status, row.n] as const])));
}

export async function customerStatistics(db: DbOrTx): Promise<z.infer<typeof statisticsSchema>> {
  const counts = await customerStatusCounts(db);
  return {
    pending: counts.get(AccountStatus.Pending) ?? 0,
    rejected: counts.get(AccountStatus.Rejected) ?? 0,
    active: counts.get(AccountStatus.Active) ?? 0,
    blocked: counts.get(AccountStatus.Blocked) ?? 0,
  };
}

type ExclusiveCandidate = z.infer<typeof exclusiveCandidate>;

/**
 * The customers a strategy may name as its exclusive customer: live customers in group Exclusive
 * (the approval and profile pages put them there), of any status, by name.
 */
export async function searchExclusiveCustomers(db: DbOrTx, text: string, page: PageWindow): Promise<Paged<ExclusiveCandidate>> {
  const where = and(eq(customers.group, CustomerGroup.Exclusive), customerConditions({ filter: {}, text }));
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: customers.id, group: customers.group, accountId: accounts.id, firstName: accounts.firstName, lastName: accounts.lastName, status: accounts.status })
      .from(customers)
      .innerJoin(accounts, liveCustomerAccount)
      .where(where)
      .orderBy(asc(customers.accountFirstName), asc(customers.accountLastName), asc(customers.id))
      .limit(page.pageSize)
      .offset(offsetOf(page)),
    db.select({ n: count() }).from(customers).where(where),
  ]);
  const data = rows.map((row) => ({
    id: row.id,
    group: row.group,
    account: { id: row.accountId, firstName: row.firstName, lastName: row.lastName, status: row.status },
  }));
  return pageOf(data, total?.n ?? 0, page);
}
