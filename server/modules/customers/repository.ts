import { and, asc, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Customer, CustomerFilter, CustomerSort } from '../../../contract/api/customer';
import type { Paged } from '../../../contract/envelope';
import { AccountType, SortType } from '../../../contract/enums';
import type { DbOrTx } from '../../db/client';
import { offsetOf, pageOf, type PageWindow } from '../../db/paging';
import { accounts, agents, countries, customerListVersion, customers, registrationIds } from '../../db/schema/index';
import { maskKey } from '../../lib/secrets';
import { accountColumns, toAccount } from '../accounts/repository';
import { asParameter, asPlaceholderInto, customerConditions, type BindValue } from './conditions';
import { listCacheOf, remember } from '../../db/list-cache';
import { rowVersionOf, versionedRows } from '../../db/versioned-rows';
import { settledAnswer, settledVersionOf } from '../../db/settled-answers';
import { preparedPerHandle, preparedPerShape } from '../../db/prepared';

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

/** How a customer row is joined: its live account (deleted accounts never appear), country, agent, registration ID. */
const joinOn = {
  account: and(eq(accounts.id, customers.accountId), isNull(accounts.deletedAt), eq(accounts.accountType, AccountType.Customer)),
  country: eq(countries.id, accounts.countryId),
  agent: eq(agents.id, customers.agentId),
  agentAccount: and(eq(agentAccounts.id, agents.accountId), isNull(agentAccounts.deletedAt)),
  registrationId: eq(registrationIds.id, customers.registrationIdId),
};

/** customers + their live account + country, agent, registration ID (`joinOn`). */
export function selectCustomers(db: DbOrTx) {
  return db
    .select(customerColumns)
    .from(customers)
    .innerJoin(accounts, joinOn.account)
    .leftJoin(countries, joinOn.country)
    .leftJoin(agents, joinOn.agent)
    .leftJoin(agentAccounts, joinOn.agentAccount)
    .leftJoin(registrationIds, joinOn.registrationId)
    .$dynamic();
}

/** Which version of a customer's list row the database holds (server/db/versioned-rows.ts). */
const rowVersion = rowVersionOf(customers, accounts, countries, agents, agentAccounts, registrationIds);

/** The row versions of some customers (the same join as `selectCustomers`, two columns): one query shape, prepared once per connection. */
const versionsQuery = preparedPerHandle((db) =>
  db
    .select({ customerId: customers.id, rowVersion })
    .from(customers)
    .innerJoin(accounts, joinOn.account)
    .leftJoin(countries, joinOn.country)
    .leftJoin(agents, joinOn.agent)
    .leftJoin(agentAccounts, joinOn.agentAccount)
    .leftJoin(registrationIds, joinOn.registrationId)
    .where(sql`${customers.id} = any(${sql.placeholder('ids')}::int[])`)
    .prepare('customer_list_versions'),
);

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

/** What a count depends on: the rows, not their order or page. */
type CountedQuery = Pick<CustomerQuery, 'filter' | 'agentId' | 'text'>;

/** The list's data version, read in the same snapshot as the rows or the count it comes with. */
const listVersion = sql<number>`(select ${customerListVersion.version} from ${customerListVersion} where ${customerListVersion.id} = 1)`.mapWith(Number);

/**
 * The ids of one page of a customer list query, on the customers table alone (its indexes carry
 * every filter and sort), with the list version; its values bound as `bind` says.
 */
function pageIdsQuery(db: DbOrTx, query: CustomerQuery, bind: BindValue) {
  return db
    .select({ id: customers.id, version: listVersion })
    .from(customers)
    .where(customerConditions(query, bind))
    .orderBy(...orderOf(query.sort))
    // Drizzle writes any SQL after LIMIT and OFFSET; its types name only numbers and placeholders.
    .limit(bind('limit', query.page.pageSize) as unknown as number)
    .offset(bind('offset', offsetOf(query.page)) as unknown as number);
}

/** The page's ids with the values as parameters of this one query (exported for EXPLAIN checks). */
export function customerPageQuery(db: DbOrTx, query: CustomerQuery) {
  return pageIdsQuery(db, query, asParameter);
}

/** The total count of a customer list query (the customers table alone), with the list version. */
export function customerCountQuery(db: DbOrTx, query: CountedQuery) {
  return db.select({ n: count(), version: listVersion }).from(customers).where(customerConditions(query));
}

/** The joined rows of some customers: one query shape, prepared once per connection. */
const detailsQuery = preparedPerHandle((db) =>
  selectCustomers(db)
    .where(sql`${customers.id} = any(${sql.placeholder('ids')}::int[])`)
    .prepare('customer_list_details'),
);

/** Full rows of the page's ids, in the page's order, each reused while its row version is unchanged. */
function customersByIds(db: DbOrTx, ids: number[]): Promise<Customer[]> {
  return versionedRows(db, 'customer-rows', ids, {
    versions: async (wanted) => (await versionsQuery(db).execute({ ids: wanted })).map((row) => ({ id: row.customerId, rowVersion: row.rowVersion })),
    rows: async (wanted) => (await detailsQuery(db).execute({ ids: wanted })).map(toCustomer),
    idOf: (customer) => customer.id,
  });
}

/**
 * A count read at version v is the count of every snapshot that reads version v (migration
 * customer_list_version_sync bumps it on every change a list filter can see).
 */
interface CountAtVersion {
  version: number;
  n: number;
}

/** The exact count: reused while the list version has not moved, else read (with its version). */
async function countOf(db: DbOrTx, query: CountedQuery, version: number | undefined): Promise<number> {
  const cache = listCacheOf<string, CountAtVersion>(db, 'customers');
  const key = JSON.stringify([query.filter, query.agentId ?? null, query.text ?? null]);
  const hit = cache?.get(key);
  if (hit && hit.version === version) return hit.n;
  const [row] = await customerCountQuery(db, query);
  const n = row?.n ?? 0;
  if (row) remember(cache, key, { version: row.version, n });
  return n;
}

/**
 * A name search's page read through the trigram index: every match is read, then sorted. The CTE
 * is materialized so the planner cannot walk a sorted index instead, testing every row it passes.
 */
export function searchMatchesPageQuery(db: DbOrTx, query: CustomerQuery): SQL {
  const matches = db
    .select({
      id: customers.id,
      datetimeInserted: customers.datetimeInserted,
      currentWalletAmount: customers.currentWalletAmount,
      accountFirstName: customers.accountFirstName,
      accountLastName: customers.accountLastName,
    })
    .from(customers)
    .where(customerConditions(query));
  // Named "customers" outside, so the list's own sort terms read the matches' columns.
  return sql`with matches as materialized (${matches})
    select ${customers.id}, ${listVersion} as version from matches as ${customers}
    order by ${sql.join(orderOf(query.sort), sql`, `)} limit ${query.page.pageSize} offset ${offsetOf(query.page)}`;
}

/**
 * Which way a name search reads its page, from its match count (exact, cached): walking the
 * list's sorted index passes about (offset + pageSize) x all / matches rows, the trigram index
 * reads every match. Sorted wins where matches are common, the trigram index where they are rare.
 */
function readsMatchesFirst(query: CustomerQuery, matches: number, all: number): boolean {
  return matches * matches < (offsetOf(query.page) + query.page.pageSize) * all;
}

const currentVersion = (db: DbOrTx) => db.select({ version: customerListVersion.version }).from(customerListVersion).where(eq(customerListVersion.id, 1));

/** A name search: the count first (cached per version), then the page the cheaper way, or none. */
async function searchCustomers(db: DbOrTx, query: CustomerQuery): Promise<{ ids: number[]; totalCount: number }> {
  const [current] = await currentVersion(db);
  const version = current?.version;
  const totalCount = await countOf(db, query, version);
  if (offsetOf(query.page) >= totalCount) return { ids: [], totalCount };
  const all = await countOf(db, { filter: query.filter, agentId: query.agentId }, version);
  const page = readsMatchesFirst(query, totalCount, all)
    ? (await db.execute<{ id: number; version: number }>(searchMatchesPageQuery(db, query))).rows
    : await customerPageQuery(db, query);
  const ids = page.map((row) => Number(row.id));
  // The list moved between the count and the page: count again, at the page's version.
  const pageVersion = page[0] === undefined ? version : Number(page[0].version);
  return { ids, totalCount: pageVersion === version ? totalCount : await countOf(db, query, pageVersion) };
}

/** The order of a sort, as a part of a statement's shape. */
function sortKeyOf(sort: CustomerSort | null | undefined): string {
  return `${sort?.name ?? 'default'}:${sort?.type === SortType.Ascending ? 'asc' : 'desc'}`;
}

const pageStatementOf = preparedPerShape<ReturnType<typeof pageIdsQuery>, ReturnType<ReturnType<typeof pageIdsQuery>['prepare']>>('customer_page');

/**
 * The page-ids statement of a query with its values bound as placeholders (collected in `values`):
 * its text depends only on the sort and which values are bound, so it is prepared once per
 * connection and shape.
 */
function preparedPageStatement(db: DbOrTx, query: CustomerQuery, values: Record<string, unknown>) {
  const built = pageIdsQuery(db, query, asPlaceholderInto(values));
  return pageStatementOf(db, `${sortKeyOf(query.sort)}|${Object.keys(values).join(',')}`, built);
}

/** The text of the prepared page-ids statement of a query (for EXPLAIN (GENERIC_PLAN) checks). */
export function preparedPageStatementText(db: DbOrTx, query: CustomerQuery): string {
  return pageIdsQuery(db, query, asPlaceholderInto({})).toSQL().sql;
}

/**
 * The one customer list query: staff list, pending-approval list, full-name search and the
 * agent's own list. Newest first unless sorted; ties broken by id so pages never overlap.
 * The page's ids come from the customers table alone, then one prepared query reads their rows.
 */
export function filterCustomers(db: DbOrTx, query: CustomerQuery): Promise<Paged<Customer>> {
  const key = JSON.stringify([query.filter, query.sort ?? null, query.page.pageIndex, query.page.pageSize, query.agentId ?? null, query.text ?? null]);
  // Which customers a page holds, and in what order, depends on the wallets only when sorted by them.
  const figuresShown = query.sort?.name === 'currentWalletAmount' ? undefined : (answer: Paged<Customer>) => figuresStillShown(db, answer.data);
  return settledAnswer(db, 'customer-answers', key, settledListVersion, () => readCustomerList(db, query), figuresShown);
}

/**
 * Whole answers are reused while nothing a list row shows has changed, or only customers' figures
 * (wallet, transaction count) have and not those on the page (migrations customer_list_changes and
 * customer_figure_changes).
 */
const settledListVersion = settledVersionOf('customer_list_settled_version');

/** The figures of some customers: one narrow query shape, prepared once per connection. */
const figuresQuery = preparedPerHandle((db) =>
  db
    .select({ id: customers.id, currentWalletAmount: customers.currentWalletAmount, totalTransactions: customers.totalTransactions })
    .from(customers)
    .where(sql`${customers.id} = any(${sql.placeholder('ids')}::int[])`)
    .prepare('customer_list_figures'),
);

/** Whether the database still holds the wallet and transaction count each of these rows shows. */
async function figuresStillShown(db: DbOrTx, rows: readonly Customer[]): Promise<boolean> {
  if (rows.length === 0) return true;
  const current = new Map((await figuresQuery(db).execute({ ids: rows.map((row) => row.id) })).map((row) => [row.id, row] as const));
  return rows.every((row) => {
    const now = current.get(row.id);
    return now !== undefined && Number(now.currentWalletAmount) === row.currentWalletAmount && now.totalTransactions === row.totalTransactions;
  });
}

async function readCustomerList(db: DbOrTx, query: CustomerQuery): Promise<Paged<Customer>> {
  if (query.text?.trim()) {
    // A name search often matches few or no rows, which the planner cannot foresee: its count
    // says which way to read the page, and whether there is one.
    const { ids, totalCount } = await searchCustomers(db, query);
    return pageOf(await customersByIds(db, ids), totalCount, query.page);
  }
  const values: Record<string, unknown> = {};
  const page = await preparedPageStatement(db, query, values).execute(values);
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
