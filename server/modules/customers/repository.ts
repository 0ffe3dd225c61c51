import { and, asc, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { alias, PgTransaction } from 'drizzle-orm/pg-core';
import type { Customer, CustomerFilter, CustomerSort } from '../../../contract/api/customer';
import type { Paged } from '../../../contract/envelope';
import { AccountType, SortType } from '../../../contract/enums';
import type { DbOrTx } from '../../db/client';
import { offsetOf, pageOf, type PageWindow } from '../../db/paging';
import { accounts, agents, countries, customerListVersion, customers, registrationIds } from '../../db/schema/index';
import { maskKey } from '../../lib/secrets';
import { accountColumns, toAccount } from '../accounts/repository';
import { customerConditions } from './conditions';
import { cachedCount, countCacheOf, rememberCount } from './count-cache';

export { CUSTOMER_LIST_DEFAULT_STATUSES } from '../../../contract/api/customer';

const agentAccounts = alias(accounts, 'agent_account');

/** Every column a customer row needs; the ciphertexts are never read, only whether one is stored. */
export const customerColumns = {
  ...accountColumns,
  customerId: customers.id,
  accountId: customers.accountId,
  group: customers.group,
  applicationSource: customers.applicationSource,
  platformType: customers.platformType,
  exchangeAccountUuid: customers.exchangeAccountUuid,
  apiKeyLast4: customers.apiKeyLast4,
  hasApiSecret: sql<boolean>`(${customers.apiSecretEnc} is not null)`,
  hasPassphrase: sql<boolean>`(${customers.passphraseEnc} is not null)`,
  currentWalletAmount: customers.currentWalletAmount,
  totalTransactions: customers.totalTransactions,
  referralCode: customers.referralCode,
  profitSharePct: customers.profitSharePct,
  customerInserted: customers.datetimeInserted,
  registrationCode: registrationIds.code,
  agentId: agents.id,
  agentFirstName: agentAccounts.firstName,
  agentLastName: agentAccounts.lastName,
};

/** Maps a row selected with `customerColumns` to the API's customer (key masked, secrets never). */
export function toCustomer(row: CustomerSqlRow): Customer {
  return {
    id: row.customerId,
    account: toAccount(row),
    agent: row.agentId !== null && row.agentFirstName !== null && row.agentLastName !== null
      ? { id: row.agentId, firstName: row.agentFirstName, lastName: row.agentLastName }
      : null,
    registrationId: row.registrationCode,
    group: row.group,
    applicationSource: row.applicationSource,
    platformType: row.platformType,
    exchangeAccountUUID: row.exchangeAccountUuid,
    apiKey: maskKey(row.apiKeyLast4),
    apiSecret: null,
    passphrase: null,
    hasApiSecret: row.hasApiSecret,
    hasPassphrase: row.hasPassphrase,
    currentWalletAmount: Number(row.currentWalletAmount),
    totalTransactions: row.totalTransactions,
    referralCode: row.referralCode,
    profitSharePct: row.profitSharePct === null ? null : Number(row.profitSharePct),
    datetimeInserted: row.customerInserted.toISOString(),
  };
}

/** customers + their live account (deleted accounts never appear) + country, agent, registration ID. */
export function selectCustomers(db: DbOrTx) {
  return db
    .select(customerColumns)
    .from(customers)
    .innerJoin(accounts, and(eq(accounts.id, customers.accountId), isNull(accounts.deletedAt), eq(accounts.accountType, AccountType.Customer)))
    .leftJoin(countries, eq(countries.id, accounts.countryId))
    .leftJoin(agents, eq(agents.id, customers.agentId))
    .leftJoin(agentAccounts, and(eq(agentAccounts.id, agents.accountId), isNull(agentAccounts.deletedAt)))
    .leftJoin(registrationIds, eq(registrationIds.id, customers.registrationIdId))
    .$dynamic();
}

/** A row as `selectCustomers` returns it (joined columns nullable). */
export type CustomerSqlRow = Awaited<ReturnType<ReturnType<typeof selectCustomers>['execute']>>[number];

function orderOf(sort: CustomerSort | null | undefined): SQL[] {
  const dir = sort?.type === SortType.Ascending ? asc : desc;
  switch (sort?.name) {
    case 'currentWalletAmount':
      return [dir(customers.currentWalletAmount), dir(customers.id)];
    case 'account.firstName':
      return [dir(customers.accountFirstName), dir(customers.accountLastName), dir(customers.id)];
    case 'datetimeInserted':
      return [dir(customers.datetimeInserted), dir(customers.id)];
    default:
      return [desc(customers.datetimeInserted), desc(customers.id)];
  }
}

export interface CustomerQuery {
  /** Applied as given: an empty list means every status (the routes choose their defaults). */
  filter: Partial<CustomerFilter>;
  sort?: CustomerSort | null;
  page: PageWindow;
  /** agents.id: only this agent's customers (the agent's own list). */
  agentId?: number;
  /** Every word must appear in "firstName lastName", case-insensitive. */
  text?: string;
}

/** The list's data version, read in the same snapshot as the rows or the count it comes with. */
const listVersion = sql<number>`(select ${customerListVersion.version} from ${customerListVersion} where ${customerListVersion.id} = 1)`.mapWith(Number);

/**
 * The ids of one page of a customer list query, on the customers table alone (its indexes carry
 * every filter and sort), with the list version (exported for EXPLAIN checks).
 */
export function customerPageQuery(db: DbOrTx, query: CustomerQuery) {
  return db
    .select({ id: customers.id, version: listVersion })
    .from(customers)
    .where(customerConditions(query))
    .orderBy(...orderOf(query.sort))
    .limit(query.page.pageSize)
    .offset(offsetOf(query.page));
}

/** The total count of a customer list query (the customers table alone), with the list version. */
export function customerCountQuery(db: DbOrTx, query: CustomerQuery) {
  return db.select({ n: count(), version: listVersion }).from(customers).where(customerConditions(query));
}

/** The joined rows of some customers: one query shape, prepared once per connection. */
function detailsQuery(db: DbOrTx) {
  return selectCustomers(db)
    .where(sql`${customers.id} = any(${sql.placeholder('ids')}::int[])`)
    .prepare('customer_list_details');
}

const preparedDetails = new WeakMap<object, ReturnType<typeof detailsQuery>>();

/** Full rows of the page's ids, in the page's order. */
async function customersByIds(db: DbOrTx, ids: number[]): Promise<Customer[]> {
  if (ids.length === 0) return [];
  let prepared = preparedDetails.get(db);
  if (!prepared) {
    prepared = detailsQuery(db);
    if (!(db instanceof PgTransaction)) preparedDetails.set(db, prepared);
  }
  const byId = new Map((await prepared.execute({ ids })).map((row) => [row.customerId, row] as const));
  // A customer deleted between the two queries is left out rather than shown half-read.
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toCustomer(row)] : [];
  });
}

/** The exact count: reused while the list version has not moved, else read (with its version). */
async function countOf(db: DbOrTx, query: CustomerQuery, version: number | undefined): Promise<number> {
  const cache = countCacheOf(db);
  const key = JSON.stringify([query.filter, query.agentId ?? null, query.text ?? null]);
  const hit = version === undefined ? undefined : cachedCount(cache, key, version);
  if (hit !== undefined) return hit;
  const [row] = await customerCountQuery(db, query);
  const n = row?.n ?? 0;
  if (row) rememberCount(cache, key, row.version, n);
  return n;
}

/**
 * The one customer list query: staff list, pending-approval list, full-name search and the
 * agent's own list. Newest first unless sorted; ties broken by id so pages never overlap.
 * The page's ids come from the customers table alone, then one prepared query reads their rows.
 */
export async function filterCustomers(db: DbOrTx, query: CustomerQuery): Promise<Paged<Customer>> {
  if (query.text?.trim()) {
    // A name search often matches few or no rows, which the planner cannot foresee: count first
    // (trigram index) and skip the page query when the page is empty.
    const totalCount = await countOf(db, query, undefined);
    const ids = offsetOf(query.page) < totalCount ? (await customerPageQuery(db, query)).map((row) => row.id) : [];
    return pageOf(await customersByIds(db, ids), totalCount, query.page);
  }
  const page = await customerPageQuery(db, query);
  const ids = page.map((row) => row.id);
  const [data, totalCount] = await Promise.all([customersByIds(db, ids), countOf(db, query, page[0]?.version)]);
  return pageOf(data, totalCount, query.page);
}

/** One live customer by customers.id (optionally only if it belongs to an agent). */
export async function findCustomer(db: DbOrTx, customerId: number, agentId?: number): Promise<Customer | undefined> {
  const [row] = await selectCustomers(db)
    .where(and(eq(customers.id, customerId), agentId === undefined ? undefined : eq(customers.agentId, agentId)))
    .limit(1);
  return row ? toCustomer(row) : undefined;
}

/** The live customer of an account (GET /api/customer). */
export async function findCustomerByAccount(db: DbOrTx, accountId: number): Promise<Customer | undefined> {
  const [row] = await selectCustomers(db).where(eq(customers.accountId, accountId)).limit(1);
  return row ? toCustomer(row) : undefined;
}
