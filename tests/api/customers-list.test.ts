import { eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus, AccountType, CustomerGroup, Exchange } from '../../contract/enums';
import { accounts, customers } from '../../server/db/schema/index';
import { readFile } from 'node:fs/promises';
import type { TempFile } from '../../server/lib/temp-file';
import { exportCustomers } from '../../server/modules/customers/export';
import { filterCustomers } from '../../server/modules/customers/repository';
import { countryId, createPerson, personWithToken, type Person } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

type WithToken = Person & { token: string };
let ctx: TestContext;
let admin: WithToken;
let employee: WithToken;
let agentA: WithToken;
let agentB: Person;
let customerPerson: WithToken;
let sg: number;
let my: number;
const ids: Record<string, number> = {};

/** One customer row, inserted directly so dates, wallets and statuses are exactly as listed. */
async function insertCustomer(spec: {
  first: string; last: string; status: number; country: number; agentId: number; group: number | null;
  platform: number; inserted: string; wallet: string; deleted?: boolean;
}): Promise<number> {
  const [account] = await ctx.deps.db
    .insert(accounts)
    .values({
      firstName: spec.first, lastName: spec.last, email: `${spec.first.toLowerCase()}@list.example.com`, age: 30, phone: '+6500000000',
      gender: 1, countryId: spec.country, status: spec.status, accountType: AccountType.Customer, passwordHash: 'not-a-hash',
      deletedAt: spec.deleted ? new Date() : null,
    })
    .returning({ id: accounts.id });
  const [customer] = await ctx.deps.db
    .insert(customers)
    .values({
      accountId: account!.id, agentId: spec.agentId, group: spec.group, applicationSource: 1, platformType: spec.platform,
      currentWalletAmount: spec.wallet, totalTransactions: 3, datetimeInserted: new Date(spec.inserted), apiKeyLast4: 'AB12',
    })
    .returning({ id: customers.id });
  return customer!.id;
}

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await personWithToken(ctx, AccountType.Admin);
  employee = await personWithToken(ctx, AccountType.Employee);
  agentA = await personWithToken(ctx, AccountType.Agent, { firstName: 'Agnes', lastName: 'Alpha' });
  agentB = await createPerson(ctx, AccountType.Agent, { firstName: 'Boris', lastName: 'Beta' });
  // The signed-in customer used for the role checks is a row of the data set too ("Zed").
  customerPerson = await personWithToken(ctx, AccountType.Customer, { status: AccountStatus.Pending, group: null, firstName: 'Zed', lastName: 'Zulu', country: 'US' });
  ids.Zed = customerPerson.roleId;
  sg = await countryId(ctx, 'SG');
  my = await countryId(ctx, 'MY');
  const A = agentA.roleId;
  const B = agentB.roleId;
  const { Active, Blocked, Pending, Rejected } = AccountStatus;
  ids.Ann = await insertCustomer({ first: 'Ann', last: 'Lee', status: Active, country: sg, agentId: A, group: CustomerGroup.Gold, platform: Exchange.Bitget, inserted: '2024-05-10T08:00:00Z', wallet: '100' });
  ids.Bob = await insertCustomer({ first: 'Bob', last: 'Tan', status: Active, country: my, agentId: B, group: CustomerGroup.Vip, platform: Exchange.Bybit, inserted: '2024-06-15T08:00:00Z', wallet: '50.5' });
  ids.Cat = await insertCustomer({ first: 'Cat', last: 'Ng', status: Blocked, country: sg, agentId: A, group: CustomerGroup.Internal, platform: Exchange.Bybit, inserted: '2024-06-01T00:00:00Z', wallet: '-5' });
  ids.Dan = await insertCustomer({ first: 'Dan', last: 'Ong', status: Pending, country: sg, agentId: B, group: null, platform: Exchange.Bitget, inserted: '2024-07-31T23:59:59Z', wallet: '0' });
  ids.Eve = await insertCustomer({ first: 'Eve', last: 'Lim', status: Rejected, country: my, agentId: A, group: CustomerGroup.Gold, platform: Exchange.Bitget, inserted: '2024-07-01T00:00:00Z', wallet: '10' });
  ids.Fay = await insertCustomer({ first: 'Fay', last: 'Goh', status: Active, country: sg, agentId: B, group: CustomerGroup.Exclusive, platform: 0, inserted: '2025-01-20T08:00:00Z', wallet: '1000' });
  ids.Gus = await insertCustomer({ first: 'Gus', last: 'Koh', status: Active, country: sg, agentId: A, group: CustomerGroup.Gold, platform: Exchange.Bitget, inserted: '2024-05-11T08:00:00Z', wallet: '7', deleted: true });
});
afterAll(async () => ctx?.close());

const nameOf = (id: number) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? `#${id}`;

async function filter(body: Record<string, unknown>, token = employee.token) {
  const result = await ctx.api('POST', '/api/customer/filter', { token, body });
  expect(result.status, JSON.stringify(result.body.error)).toBe(200);
  return { names: (result.body.data.data as Array<{ id: number }>).map((c) => nameOf(c.id)), paging: result.body.data.paging, rows: result.body.data.data };
}

describe('POST /api/customer/filter', () => {
  it('lists Blocked and Active customers newest first when no status is chosen, with the full row shape', async () => {
    const { names, paging, rows } = await filter({});
    expect(names).toEqual(['Fay', 'Bob', 'Cat', 'Ann']);
    expect(paging).toEqual({ totalCount: 4, pageIndex: 0, pageSize: 50 });
    expect(rows[1]).toEqual({
      id: ids.Bob,
      account: {
        id: expect.any(Number), firstName: 'Bob', lastName: 'Tan', email: 'bob@list.example.com', age: 30, phone: '+6500000000', gender: 1,
        country: { id: my, name: 'Malaysia', countryCode: 'MY', imageUrl: '/flags/my.svg' },
        status: AccountStatus.Active, datetimeInserted: expect.any(String), role: { accountType: AccountType.Customer },
      },
      agent: { id: agentB.roleId, firstName: 'Boris', lastName: 'Beta' },
      registrationId: null, group: CustomerGroup.Vip, applicationSource: 1, platformType: Exchange.Bybit, exchangeAccountUUID: null,
      apiKey: '****AB12', apiSecret: null, passphrase: null, hasApiSecret: false, hasPassphrase: false,
      currentWalletAmount: 50.5, totalTransactions: 3, referralCode: null, profitSharePct: null, datetimeInserted: '2024-06-15T08:00:00.000Z',
    });
  });

  it.each([
    ['statuses (pending list)', { statuses: [1, 5] }, ['Zed', 'Dan', 'Eve']],
    ['countryIds', { countryIds: ['MY'] }, ['Bob']],
    ['countryIds with every status', { countryIds: ['MY'], statuses: [1, 2, 3, 4, 5] }, ['Eve', 'Bob']],
    ['agentIds', { agentIds: ['A'] }, ['Cat', 'Ann']],
    ['agentIds, two agents', { agentIds: ['A', 'B'], statuses: [3] }, ['Fay', 'Bob', 'Ann']],
    ['groups', { groups: [CustomerGroup.Gold] }, ['Ann']],
    ['groups, two', { groups: [CustomerGroup.Gold, CustomerGroup.Exclusive] }, ['Fay', 'Ann']],
    ['month (first instant included)', { datetimesInserted: ['2024-06'] }, ['Bob', 'Cat']],
    ['two months', { datetimesInserted: ['2024-05', '2025-01'] }, ['Fay', 'Ann']],
    ['month (last second included)', { datetimesInserted: ['2024-07'], statuses: [1, 5] }, ['Dan', 'Eve']],
    ['platformTypes none connected', { platformTypes: [0] }, ['Fay']],
    ['platformTypes Bybit', { platformTypes: [Exchange.Bybit] }, ['Bob', 'Cat']],
    ['every filter at once', { statuses: [1, 2, 3, 5], countryIds: ['SG'], agentIds: ['B'], groups: [], datetimesInserted: ['2024-07'], platformTypes: [Exchange.Bitget] }, ['Dan']],
    ['no match', { groups: [CustomerGroup.Occasion] }, []],
  ])('filters by %s', async (_label, raw, expected) => {
    const f = raw as Record<string, unknown[]>;
    const countryIds = f.countryIds?.map((c) => (c === 'MY' ? my : sg));
    const agentIds = f.agentIds?.map((a) => (a === 'A' ? agentA.roleId : agentB.roleId));
    const { names, paging } = await filter({ filter: { ...f, ...(countryIds ? { countryIds } : {}), ...(agentIds ? { agentIds } : {}) } });
    expect(names).toEqual(expected);
    expect(paging.totalCount).toBe(expected.length);
  });

  it.each([
    ['currentWalletAmount', 1, ['Cat', 'Bob', 'Ann', 'Fay']],
    ['currentWalletAmount', 2, ['Fay', 'Ann', 'Bob', 'Cat']],
    ['account.firstName', 1, ['Ann', 'Bob', 'Cat', 'Fay']],
    ['account.firstName', 2, ['Fay', 'Cat', 'Bob', 'Ann']],
    ['datetimeInserted', 1, ['Ann', 'Cat', 'Bob', 'Fay']],
    ['datetimeInserted', 2, ['Fay', 'Bob', 'Cat', 'Ann']],
  ])('sorts by %s type %i', async (name, type, expected) => {
    expect((await filter({ sort: { name, type } })).names).toEqual(expected);
  });

  it('pages: full page, last page, page beyond the end', async () => {
    const first = await filter({ pageIndex: 0, pageSize: 3 });
    expect(first).toMatchObject({ names: ['Fay', 'Bob', 'Cat'], paging: { totalCount: 4, pageIndex: 0, pageSize: 3 } });
    const last = await filter({ pageIndex: 1, pageSize: 3 });
    expect(last).toMatchObject({ names: ['Ann'], paging: { totalCount: 4, pageIndex: 1, pageSize: 3 } });
    const beyond = await filter({ pageIndex: 7, pageSize: 3 });
    expect(beyond).toMatchObject({ names: [], paging: { totalCount: 4, pageIndex: 7, pageSize: 3 } });
    const empty = await filter({ filter: { groups: [CustomerGroup.Occasion] }, pageIndex: 0 });
    expect(empty).toMatchObject({ names: [], paging: { totalCount: 0, pageIndex: 0, pageSize: 50 } });
  });

  it.each([
    [{ pageSize: 101 }, 'body.pageSize: pageSize must be at most 100'],
    [{ pageIndex: -1 }, 'body.pageIndex: pageIndex starts at 0'],
    [{ filter: { statuses: [9] } }, 'body.filter.statuses.0: status must be 1 (Pending), 2 (Blocked), 3 (Active), 4 (Incomplete) or 5 (Rejected)'],
    [{ filter: { datetimesInserted: ['2024-13'] } }, 'body.filter.datetimesInserted.0: must be a month written YYYY-MM'],
    [{ filter: { platformTypes: [7] } }, 'body.filter.platformTypes.0: platformType must be 0 (none), 1 (Bitget), 2 (Bybit), 3 (Binance) or 4 (OKX)'],
    [{ filter: { countryIds: ['x'] } }, 'body.filter.countryIds.0: must be a number'],
    [{ sort: { name: 'email', type: 1 } }, 'body.sort.name: sort name must be one of currentWalletAmount, account.firstName, datetimeInserted'],
    [{ sort: { name: 'datetimeInserted', type: 3 } }, 'body.sort.type: sort type must be 1 (ascending) or 2 (descending)'],
  ])('refuses %j with a clear message', async (body, message) => {
    const result = await ctx.api('POST', '/api/customer/filter', { token: employee.token, body });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ successful: false, data: null, error: { message } });
  });

  it('is for staff only', async () => {
    expect((await ctx.api('POST', '/api/customer/filter', { body: {} })).status).toBe(401);
    expect((await ctx.api('POST', '/api/customer/filter', { token: agentA.token, body: {} })).status).toBe(403);
    expect((await ctx.api('POST', '/api/customer/filter', { token: customerPerson.token, body: {} })).status).toBe(403);
    expect((await filter({}, admin.token)).names).toEqual(['Fay', 'Bob', 'Cat', 'Ann']);
  });
});

describe('POST /api/customer/search/fullname', () => {
  it.each([
    ['an', ['Ann', 'Bob', 'Dan']],
    ['ANN', ['Ann']],
    ['lee ann', ['Ann']],
    ['ann lee', ['Ann']],
    ['zulu', ['Zed']],
    ['koh', []],
    ['%', []],
    ['', ['Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay', 'Zed']],
  ])('%j finds %j (any status, never deleted)', async (text, expected) => {
    const result = await ctx.api('POST', '/api/customer/search/fullname', { token: employee.token, body: { text } });
    expect(result.status).toBe(200);
    expect(result.body.data.data.map((c: { id: number }) => nameOf(c.id))).toEqual(expected);
    expect(result.body.data.paging).toEqual({ totalCount: expected.length, pageIndex: 0, pageSize: 50 });
  });

  it('pages and validates', async () => {
    const page = await ctx.api('POST', '/api/customer/search/fullname', { token: employee.token, body: { text: 'an', pageSize: 2, pageIndex: 1 } });
    expect(page.body.data).toMatchObject({ paging: { totalCount: 3, pageIndex: 1, pageSize: 2 } });
    expect(page.body.data.data.map((c: { id: number }) => nameOf(c.id))).toEqual(['Dan']);
    const missing = await ctx.api('POST', '/api/customer/search/fullname', { token: employee.token, body: {} });
    expect(missing.body.error?.message).toBe('body.text: text is required');
    expect((await ctx.api('POST', '/api/customer/search/fullname', { token: agentA.token, body: { text: 'a' } })).status).toBe(403);
  });
});

describe('POST /api/customer/search/exclusive', () => {
  it('lists customers in group Exclusive by name, 100 per page', async () => {
    const all = await ctx.api('POST', '/api/customer/search/exclusive', { token: employee.token, body: { text: '' } });
    expect(all.body).toEqual({
      successful: true,
      error: null,
      data: { data: [{ id: ids.Fay, group: CustomerGroup.Exclusive, account: { id: expect.any(Number), firstName: 'Fay', lastName: 'Goh', status: AccountStatus.Active } }], paging: { totalCount: 1, pageIndex: 0, pageSize: 100 } },
    });
    const none = await ctx.api('POST', '/api/customer/search/exclusive', { token: employee.token, body: { text: 'ann', pageIndex: 0 } });
    expect(none.body.data).toEqual({ data: [], paging: { totalCount: 0, pageIndex: 0, pageSize: 100 } });
    const fay = await ctx.api('POST', '/api/customer/search/exclusive', { token: admin.token, body: { text: 'GOH' } });
    expect(fay.body.data.data.map((c: { id: number }) => c.id)).toEqual([ids.Fay]);
    expect((await ctx.api('POST', '/api/customer/search/exclusive', { token: customerPerson.token, body: {} })).status).toBe(403);
  });
});

describe('GET /api/customer/statistics', () => {
  it('counts live customers per status', async () => {
    const result = await ctx.api('GET', '/api/customer/statistics', { token: employee.token });
    expect(result.body).toEqual({ successful: true, error: null, data: { pending: 2, rejected: 1, active: 3, blocked: 1 } });
    expect((await ctx.api('GET', '/api/customer/statistics', { token: agentA.token })).status).toBe(403);
    expect((await ctx.api('GET', '/api/customer/statistics')).status).toBe(401);
  });
});

describe('POST /api/customer/export', () => {
  it('answers a real customers.xlsx with a header row and every live customer', async () => {
    expect((await ctx.api('POST', '/api/customer/export', { token: employee.token })).status).toBe(403);
    const result = await ctx.api('POST', '/api/customer/export', { token: admin.token });
    expect(result.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(result.body.data.fileBase64String, 'base64') as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Customers')!;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(['Customer ID', 'First Name', 'Last Name', 'Email', 'Phone', 'Country', 'Agent', 'Group', 'Status', 'Exchange', 'Wallet (USDT)', 'Total Transactions', 'Since']);
    expect(sheet.rowCount).toBe(8);
    const firstNames = Array.from({ length: 7 }, (_, i) => values(i + 2)[1]);
    expect(firstNames).toEqual(['Zed', 'Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay']);
    expect(values(3)).toEqual([ids.Ann, 'Ann', 'Lee', 'ann@list.example.com', '+6500000000', 'Singapore', 'Agnes Alpha', 'Gold', 'Active', 'Bitget', 100, 3, new Date('2024-05-10T08:00:00Z')]);
    expect(values(5)).toEqual([ids.Cat, 'Cat', 'Ng', 'cat@list.example.com', '+6500000000', 'Singapore', 'Agnes Alpha', 'Internal', 'Blocked', 'Bybit', -5, 3, new Date('2024-06-01T00:00:00Z')]);
    expect(values(8).slice(7, 10)).toEqual(['Exclusive', 'Active', 'None']);
    expect(sheet.getRow(3).getCell(13).numFmt).toBe('dd/mm/yyyy');
    expect(sheet.getRow(1).font?.bold).toBe(true);
  });

  it('reads the customers in keyset pages: a batch size of 2 writes the same rows', async () => {
    const load = async (file: Buffer) => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Customers')!;
      return Array.from({ length: sheet.rowCount }, (_, i) => (sheet.getRow(i + 1).values as unknown[]).slice(1));
    };
    const read = async (file: TempFile) => {
      const bytes = await readFile(file.path);
      await file.remove();
      return bytes;
    };
    const small = await load(await read(await exportCustomers(ctx.deps.db, { batchSize: 2 })));
    const large = await load(await read(await exportCustomers(ctx.deps.db)));
    expect(small).toHaveLength(8);
    expect(small).toEqual(large);
  });
});

describe('the total count of the list', () => {
  const total = async (body: Record<string, unknown>) => (await filter(body)).paging.totalCount;
  const accountOf = (customerId: number) => ctx.deps.db.select({ id: customers.accountId }).from(customers).where(eq(customers.id, customerId));
  const gold = { filter: { groups: [CustomerGroup.Gold] } };

  it('stays exact while customers change (a remembered count is reused only until the list changes)', async () => {
    expect([await total({}), await total(gold)]).toEqual([4, 1]);
    // A wallet update changes no count, and the counts stay right.
    await ctx.deps.db.update(customers).set({ currentWalletAmount: '1' }).where(eq(customers.id, ids.Ann!));
    expect([await total({}), await total(gold)]).toEqual([4, 1]);
    await ctx.deps.db.update(accounts).set({ status: AccountStatus.Pending }).where(inArray(accounts.id, accountOf(ids.Bob!)));
    expect(await total({})).toBe(3);
    await ctx.deps.db.update(customers).set({ group: CustomerGroup.Vip }).where(eq(customers.id, ids.Ann!));
    expect(await total(gold)).toBe(0);
    ids.Hal = await insertCustomer({ first: 'Hal', last: 'Ho', status: AccountStatus.Active, country: sg, agentId: agentA.roleId, group: CustomerGroup.Gold, platform: Exchange.Bybit, inserted: '2025-02-01T00:00:00Z', wallet: '3' });
    expect([await total({}), await total(gold)]).toEqual([4, 1]);
    await ctx.deps.db.update(accounts).set({ deletedAt: new Date() }).where(inArray(accounts.id, accountOf(ids.Fay!)));
    expect([await total({}), await total(gold)]).toEqual([3, 1]);
    await ctx.deps.db.delete(customers).where(eq(customers.id, ids.Hal));
    expect([await total({}), await total(gold)]).toEqual([2, 0]);
  });

  it('counts a transaction\'s own changes inside it, and forgets them when it rolls back', async () => {
    const listed = { filter: { statuses: [AccountStatus.Blocked, AccountStatus.Active] }, page: { pageIndex: 0, pageSize: 50 } };
    expect(await total({})).toBe(2);
    await expect(
      ctx.deps.db.transaction(async (tx) => {
        await tx.update(accounts).set({ status: AccountStatus.Active }).where(inArray(accounts.id, accountOf(ids.Dan!)));
        expect((await filterCustomers(tx, listed)).paging.totalCount).toBe(3);
        tx.rollback();
      }),
    ).rejects.toThrow('Rollback');
    expect(await total({})).toBe(2);
    // The next committed change reaches the version the transaction saw: its count must not come back.
    await ctx.deps.db.update(customers).set({ group: CustomerGroup.Vip }).where(eq(customers.id, ids.Ann!));
    expect((await filterCustomers(ctx.deps.db, listed)).paging.totalCount).toBe(2);
  });
});
