import { and, eq, isNull } from 'drizzle-orm';
import type { CustomerStrategy } from '../../../contract/api/strategy';
import { CustomerGroup } from '../../../contract/enums';
import type { DbOrTx } from '../../db/client';
import { accounts, customers } from '../../db/schema/index';
import { filterValue, pageOf, type PageWindow } from '../../db/paging';
import { newestFirst, searchStrategies, type StrategyView } from './repository';

/** The signed-in customer's record: id and group. */
export async function customerOfAccount(db: DbOrTx, accountId: number): Promise<{ id: number; group: number | null } | undefined> {
  const [row] = await db
    .select({ id: customers.id, group: customers.group })
    .from(customers)
    .innerJoin(accounts, eq(accounts.id, customers.accountId))
    .where(and(eq(customers.accountId, accountId), isNull(accounts.deletedAt)));
  return row;
}

/**
 * Strategies that trade for the customer's group; an Exclusive customer sees only the strategies
 * chosen for them. The webhook URL and other groups' amounts stay hidden.
 */
export async function searchCustomerStrategies(
  db: DbOrTx,
  view: StrategyView,
  accountId: number,
  request: PageWindow & { filter: Array<{ name: string; value: unknown }> },
) {
  const customer = await customerOfAccount(db, accountId);
  if (!customer || customer.group === null) return pageOf<CustomerStrategy>([], 0, request);
  const group = customer.group;
  const page = await searchStrategies(
    db,
    { ...view, revealWebhook: false },
    {
      id: filterValue(request.filter, 'id'),
      symbol: filterValue(request.filter, 'symbol'),
      group,
      ...(group === CustomerGroup.Exclusive ? { customerId: customer.id } : {}),
    },
    request,
    newestFirst,
  );
  const rows = page.data.map(({ webhookUrl: _url, hasWebhook: _has, groups, exclusiveCustomerId: _ex, exclusiveCustomer: _c, ...rest }): CustomerStrategy => {
    const mine = groups.find((g) => g.group === group);
    return { ...rest, investAmount: mine!.investAmount };
  });
  return pageOf(rows, page.paging.totalCount, request);
}
