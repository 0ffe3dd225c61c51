import ExcelJS from 'exceljs';
import { DATE_TIME_FORMAT } from '../../server/lib/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, CustomerGroup, ExitType, OrderEntryType, OrderStatus } from '../../contract/enums';
import { entryAudits, executions, exitAudits, orders } from '../../server/db/schema/index';
import { createPerson, personWithToken } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { guardedFetch } from '../helpers/fetch-guard';
import { startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import { useExchangeAccess } from '../../server/trading/exchanges/for-deps';

let ctx: TestContext;
let sandbox: RunningSandbox;
let admin: string;
let employee: string;
let orderBtc: number;
let orderEth: number;
let customerId: number;
let agentId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  sandbox = await startSandbox({ randomWalk: false });
  useExchangeAccess(ctx.deps, { sandboxUrl: sandbox.url, fetchImplementation: guardedFetch });
  admin = (await personWithToken(ctx, AccountType.Admin)).token;
  employee = (await personWithToken(ctx, AccountType.Employee)).token;
  const agent = await createPerson(ctx, AccountType.Agent, { firstName: 'Agatha', lastName: 'Agent' });
  agentId = agent.roleId;
  customerId = (await createPerson(ctx, AccountType.Customer, { agentId, group: CustomerGroup.Gold, firstName: 'Cara', lastName: 'Customer' })).roleId;
  for (const [id, symbol, entryDirection] of [['BTC1', 'BTCUSDT', 1], ['ETH1', 'ETHUSDT', 2]] as const) {
    const created = await ctx.api('POST', '/api/strategy', {
      token: admin,
      body: {
        id, symbol, entryDirection, groups: [{ group: 1, investAmount: { type: 1, amount: 10 } }], leverage: 5, positionMode: 1,
        takeProfitType: 3, takeProfitMode: 1, tp1: { targetLevel: 1 }, stopLoss: { type: 3, amount: 1 },
      },
    });
    expect(created.status).toBe(200);
  }
  [orderBtc, orderEth] = (
    await ctx.deps.db
      .insert(orders)
      .values([
        { strategyId: 'BTC1', side: 1, entryType: OrderEntryType.Api, status: OrderStatus.Loss },
        { strategyId: 'ETH1', side: 2, entryType: OrderEntryType.Manual, status: OrderStatus.Win },
      ])
      .returning({ id: orders.id })
  ).map((r) => r.id) as [number, number];
  await ctx.deps.db.insert(executions).values([
    { orderId: orderBtc, customerId, clientOrderId: 'a-1', deadlineAt: new Date() },
    { orderId: orderEth, customerId, clientOrderId: 'a-2', deadlineAt: new Date() },
  ]);
  // Entry audit rows around the UTC+8 day boundary of 2025-03-10 (starts 2025-03-09T16:00Z).
  await ctx.deps.db.insert(entryAudits).values([
    { orderId: orderBtc, customerId, strategyId: 'BTC1', entryType: OrderEntryType.Api, message: 'Insufficient balance', datetimeInserted: new Date('2025-03-09T15:59:59Z') },
    { orderId: orderBtc, customerId, strategyId: 'BTC1', entryType: OrderEntryType.Api, message: 'The API key is not valid', datetimeInserted: new Date('2025-03-09T16:00:00Z') },
    { orderId: orderEth, customerId: null, strategyId: 'ETH1', entryType: OrderEntryType.Manual, message: 'Below the market minimum', datetimeInserted: new Date('2025-03-10T15:59:59Z') },
    { orderId: null, customerId: null, strategyId: null, entryType: null, message: 'Alert refused: unknown token', datetimeInserted: new Date('2025-04-01T00:00:00Z') },
  ]);
  await ctx.deps.db.insert(exitAudits).values([
    { orderId: orderBtc, customerId, strategyId: 'BTC1', exitType: ExitType.ByAdmin, isError: false, message: 'Closed by admin', datetimeInserted: new Date('2025-03-11T00:00:00Z') },
    { orderId: orderEth, customerId, strategyId: 'ETH1', exitType: ExitType.Customer, isError: true, message: 'Close failed: rate limit', datetimeInserted: new Date('2025-03-12T00:00:00Z') },
    { orderId: orderEth, customerId, strategyId: 'ETH1', exitType: null, isError: false, message: 'Take profit 1 filled', datetimeInserted: new Date('2025-03-13T00:00:00Z') },
  ]);
});
afterAll(async () => {
  await ctx?.close();
  await sandbox?.close();
});

const messagesOf = (answer: { body: { data: { data: Array<{ message: string }> } } }) => answer.body.data.data.map((r) => r.message);
const entrySearch = (body: unknown, query = '', token = employee) => ctx.api('POST', `/api/error/search${query}`, { token, body });
const exitSearch = (body: unknown, query = '', token = employee) => ctx.api('POST', `/api/exit/search${query}`, { token, body });

describe('entry audit', () => {
  it('answers rows newest first with customer, agent and strategy, 50 per page by default', async () => {
    const all = await entrySearch({ filter: [] });
    expect(all.status).toBe(200);
    expect(all.body.data.paging).toEqual({ totalCount: 4, pageIndex: 0, pageSize: 50 });
    expect(messagesOf(all)).toEqual(['Alert refused: unknown token', 'Below the market minimum', 'The API key is not valid', 'Insufficient balance']);
    expect(all.body.data.data[2]).toEqual({
      id: expect.any(Number),
      transactionId: orderBtc,
      customer: { id: customerId, firstName: 'Cara', lastName: 'Customer', agent: { id: agentId, firstName: 'Agatha', lastName: 'Agent' } },
      strategy: { id: 'BTC1', symbol: 'BTCUSDT', entryDirection: 1 },
      entryType: OrderEntryType.Api,
      exitType: null,
      datetimeInserted: '2025-03-09T16:00:00.000Z',
      message: 'The API key is not valid',
    });
    expect(all.body.data.data[0]).toMatchObject({ transactionId: null, customer: null, strategy: null, entryType: null });
  });

  it('filters by transaction id, month and symbol', async () => {
    expect(messagesOf(await entrySearch({ filter: [{ name: 'transactionId', value: String(orderEth) }] }))).toEqual(['Below the market minimum']);
    expect(messagesOf(await entrySearch({ filter: [{ name: 'datetimeInserted', value: '2025-04' }] }))).toEqual(['Alert refused: unknown token']);
    expect(messagesOf(await entrySearch({ filter: [{ name: 'strategy.symbol', value: 'BTCUSDT' }] }))).toEqual(['The API key is not valid', 'Insufficient balance']);
  });

  it('reads startDate/endDate dates as UTC+8 days (the web app’s "Today") and date-times as instants', async () => {
    const today = await entrySearch({ filter: [] }, '?startDate=2025-03-10&endDate=2025-03-10');
    expect(messagesOf(today)).toEqual(['Below the market minimum', 'The API key is not valid']);
    const instants = await entrySearch({ filter: [] }, '?startDate=2025-03-09T15:00:00Z&endDate=2025-03-09T16:00:00Z');
    expect(messagesOf(instants)).toEqual(['The API key is not valid', 'Insufficient balance']);
    const bad = await entrySearch({ filter: [] }, '?startDate=10-03-2025');
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe('query.startDate: must be an ISO date (YYYY-MM-DD) or date-time with a zone');
    const reversed = await entrySearch({ filter: [] }, '?startDate=2025-03-11&endDate=2025-03-10');
    expect(reversed.body.error?.message).toBe('startDate must not be after endDate');
  });

  it('pages', async () => {
    const page = await entrySearch({ filter: [], pageSize: 3, pageIndex: 1 });
    expect(messagesOf(page)).toEqual(['Insufficient balance']);
    expect(page.body.data.paging).toEqual({ totalCount: 4, pageIndex: 1, pageSize: 3 });
  });

  it('counts entries and entry errors', async () => {
    expect((await ctx.api('GET', '/api/error/statistics', { token: employee })).body.data).toEqual({ total: 2, errors: 4 });
  });
});

describe('exit audit', () => {
  it('filters by exit type (0 all, 1 admin, 2 customer, 3 automatic) and symbol', async () => {
    expect(messagesOf(await exitSearch({ filter: [{ name: 'exitType', value: 0 }] }))).toEqual(['Take profit 1 filled', 'Close failed: rate limit', 'Closed by admin']);
    expect(messagesOf(await exitSearch({ filter: [{ name: 'exitType', value: 1 }] }))).toEqual(['Closed by admin']);
    const byCustomer = await exitSearch({ filter: [{ name: 'exitType', value: '2' }] });
    expect(byCustomer.body.data.data).toEqual([
      {
        id: expect.any(Number),
        transactionId: orderEth,
        customer: { id: customerId, firstName: 'Cara', lastName: 'Customer', agent: { id: agentId, firstName: 'Agatha', lastName: 'Agent' } },
        strategy: { id: 'ETH1', symbol: 'ETHUSDT', entryDirection: 2 },
        entryType: OrderEntryType.Manual,
        exitType: ExitType.Customer,
        datetimeInserted: '2025-03-12T00:00:00.000Z',
        message: 'Close failed: rate limit',
      },
    ]);
    expect(messagesOf(await exitSearch({ filter: [{ name: 'strategy.symbol', value: 'ethusdt' }] }))).toEqual(['Take profit 1 filled', 'Close failed: rate limit']);
    // Issue 28 item 10: the automatic exits (signal, TP/SL: no exit type stored) can be chosen too.
    expect(messagesOf(await exitSearch({ filter: [{ name: 'exitType', value: 3 }] }))).toEqual(['Take profit 1 filled']);
    const bad = await exitSearch({ filter: [{ name: 'exitType', value: 4 }] });
    expect(bad.body.error?.message).toBe('filter exitType must be 0 (All), 1 (Manual (Admin)), 2 (Manual (Customer)) or 3 (Automatic (Signal, TP/SL))');
  });

  it('counts failed exits', async () => {
    expect((await ctx.api('GET', '/api/exit/statistics', { token: employee })).body).toEqual({ successful: true, data: { error: 1 }, error: null });
  });
});

describe('exports', () => {
  async function rowsOf(base64: string): Promise<unknown[][]> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  }

  async function dateFormatOf(base64: string): Promise<string | undefined> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
    const cell = workbook.worksheets[0]!.getRow(2).getCell(9);
    expect(cell.type).toBe(ExcelJS.ValueType.Date);
    return cell.numFmt;
  }

  it('writes entry.xlsx with a header and every matching row (admins only)', async () => {
    expect((await ctx.api('POST', '/api/error/export', { token: employee })).status).toBe(403);
    const answer = await ctx.api('POST', '/api/error/export', { token: admin });
    expect(answer.body.error).toBeNull();
    expect(answer.status).toBe(200);
    expect(answer.body.data.fileName).toBe('entry.xlsx');
    const rows = await rowsOf(answer.body.data.fileBase64String);
    expect(rows[0]).toEqual(['ID', 'Transaction ID', 'Customer', 'Agent', 'Strategy ID', 'Symbol', 'Direction', 'Entry Type', 'Date (UTC)', 'Message']);
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => r[9])).toEqual(['Message', 'Alert refused: unknown token', 'Below the market minimum', 'The API key is not valid', 'Insufficient balance']);
    expect(rows[3]!.slice(1, 8)).toEqual([orderBtc, 'Cara Customer', 'Agatha Agent', 'BTC1', 'BTCUSDT', 'Long', 'API']);
    expect(await dateFormatOf(answer.body.data.fileBase64String)).toBe(DATE_TIME_FORMAT);
  });

  it('writes exit.xlsx with the same filters as the search', async () => {
    const answer = await ctx.api('POST', '/api/exit/export', { token: admin, body: { filter: [{ name: 'exitType', value: 1 }] } });
    expect(answer.body.data.fileName).toBe('exit.xlsx');
    const rows = await rowsOf(answer.body.data.fileBase64String);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.slice(4, 10)).toEqual(['BTC1', 'BTCUSDT', 'Long', 'Manual (Admin)', new Date('2025-03-11T00:00:00Z'), 'Closed by admin']);
    // Issue 28 item 19: a spreadsheet date (a date cell with a date-time format), not ISO text.
    expect(await dateFormatOf(answer.body.data.fileBase64String)).toBe(DATE_TIME_FORMAT);
    const all = await rowsOf((await ctx.api('POST', '/api/exit/export', { token: admin, body: { filter: [] } })).body.data.fileBase64String);
    // An exit nobody asked for by hand (exit type null: TP/SL or signal) is labelled, not left blank.
    expect(all.slice(1).map((row) => [row[7], row[9]])).toEqual([
      ['Automatic (Signal, TP/SL)', 'Take profit 1 filled'],
      ['Manual (Customer)', 'Close failed: rate limit'],
      ['Manual (Admin)', 'Closed by admin'],
    ]);
  });
});
