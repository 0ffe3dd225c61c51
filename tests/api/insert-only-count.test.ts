import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, ExitType, OrderEntryType } from '../../contract/enums';
import { entryAudits, exitAudits, orders, strategies } from '../../server/db/schema/index';
import { personWithToken } from '../helpers/fixtures';
import { createTestContext, otherConnection, type TestContext } from '../helpers/test-app';

/**
 * The order and audit searches keep their total counts exact without counting again
 * (server/db/insert-only-count.ts): every answer is checked against a direct count, while other
 * connections insert, commit out of order, roll back and release savepoints.
 */
let ctx: TestContext;
let employee: string;
const writers: pg.Client[] = [];

async function writer(): Promise<pg.Client> {
  const client = await otherConnection(ctx.database);
  writers.push(client);
  return client;
}

const strategy = (id: string, symbol: string) => ({
  id, symbol, entryDirection: 1, leverage: 5, positionMode: 1, takeProfitType: 3, takeProfitMode: 1, tp1TargetLevel: '1', tp1CloseVolume: '100', stopLossType: 3, stopLossAmount: '1',
});

beforeAll(async () => {
  ctx = await createTestContext();
  employee = (await personWithToken(ctx, AccountType.Employee)).token;
  await ctx.deps.db.insert(strategies).values([strategy('BTC1', 'BTCUSDT'), strategy('ETH1', 'ETHUSDT')]);
  await ctx.deps.db.insert(entryAudits).values([
    { strategyId: 'BTC1', entryType: OrderEntryType.Api, message: 'first', datetimeInserted: new Date('2025-03-01T00:00:00Z') },
    { strategyId: 'ETH1', entryType: OrderEntryType.Api, message: 'second', datetimeInserted: new Date('2025-04-01T00:00:00Z') },
  ]);
});
afterAll(async () => {
  await Promise.all(writers.map((client) => client.end()));
  await ctx?.close();
});

type Filter = Array<{ name: string; value: string | number }>;
const bySymbol: Filter = [{ name: 'strategy.symbol', value: 'BTCUSDT' }];
const byMonth: Filter = [{ name: 'datetimeInserted', value: '2025-03' }];

async function entryTotal(filter: Filter, pageIndex = 0): Promise<number> {
  const answer = await ctx.api('POST', '/api/error/search', { token: employee, body: { filter, pageIndex, pageSize: 1 } });
  expect(answer.status).toBe(200);
  return answer.body.data.paging.totalCount;
}

async function directEntryCount(filter: Filter): Promise<number> {
  const symbol = filter.find((f) => f.name === 'strategy.symbol')?.value ?? null;
  const month = filter.find((f) => f.name === 'datetimeInserted')?.value ?? null;
  const result = await ctx.deps.db.execute<{ n: number }>(sql`
    select count(*)::int as n from entry_audits a left join strategies s on s.id = a.strategy_id
    where (${symbol}::text is null or s.symbol = ${symbol})
      and (${month}::text is null or to_char(a.datetime_inserted at time zone 'UTC', 'YYYY-MM') = ${month})`);
  return result.rows[0]!.n;
}

/** Every filter's total as the API answers it, next to a direct count. */
async function totals(): Promise<Array<[number, number]>> {
  const out: Array<[number, number]> = [];
  for (const filter of [[], bySymbol, byMonth, [...bySymbol, ...byMonth]]) out.push([await entryTotal(filter), await directEntryCount(filter)]);
  return out;
}

const insertEntry = (client: pg.Client, strategyId: string, at: string) =>
  client.query(`insert into entry_audits (strategy_id, entry_type, message, datetime_inserted) values ($1, 2, 'added', $2)`, [strategyId, at]);

describe('the exact totals of insert-only lists', () => {
  it('answer the direct count after rows committed elsewhere, filter by filter', async () => {
    const first = await totals();
    expect(first.map(([api]) => api)).toEqual([2, 1, 1, 1]);
    const client = await writer();
    await insertEntry(client, 'BTC1', '2025-03-05T00:00:00Z');
    await insertEntry(client, 'ETH1', '2025-03-06T00:00:00Z');
    const after = await totals();
    expect(after.map(([api]) => api)).toEqual([4, 2, 3, 2]);
    for (const [api, direct] of after) expect(api).toBe(direct);
  });

  it('count a transaction that commits after a later one (ids and commits out of order)', async () => {
    const slow = await writer();
    const fast = await writer();
    await slow.query('begin');
    await insertEntry(slow, 'BTC1', '2025-03-07T00:00:00Z'); // takes the lower id, commits last
    await insertEntry(fast, 'BTC1', '2025-03-08T00:00:00Z');
    const whileOpen = await totals();
    for (const [api, direct] of whileOpen) expect(api).toBe(direct);
    expect(whileOpen[1]![0]).toBe(3);
    await slow.query('commit');
    const committed = await totals();
    expect(committed[1]![0]).toBe(4);
    for (const [api, direct] of committed) expect(api).toBe(direct);
  });

  it('never count rows rolled back, whole or to a savepoint, and count a released savepoint', async () => {
    const client = await writer();
    const before = await entryTotal([]);
    await client.query('begin');
    await insertEntry(client, 'ETH1', '2025-05-01T00:00:00Z');
    await client.query('rollback');
    expect(await entryTotal([])).toBe(before);
    await client.query('begin');
    await client.query('savepoint s1');
    await insertEntry(client, 'ETH1', '2025-05-02T00:00:00Z');
    await client.query('rollback to savepoint s1');
    await client.query('savepoint s2');
    await insertEntry(client, 'ETH1', '2025-05-03T00:00:00Z');
    await client.query('release savepoint s2');
    expect(await entryTotal([])).toBe(before);
    await client.query('commit');
    expect(await entryTotal([])).toBe(before + 1);
    for (const [api, direct] of await totals()) expect(api).toBe(direct);
  });

  it('count past the last page the same (nothing to read the added rows from)', async () => {
    const total = await entryTotal([]);
    await insertEntry(await writer(), 'BTC1', '2025-06-01T00:00:00Z');
    expect(await entryTotal([], total + 5)).toBe(total + 1);
  });

  it('keep the exit audit and order totals exact the same way', async () => {
    const client = await writer();
    const exitTotal = async () => (await ctx.api('POST', '/api/exit/search', { token: employee, body: { filter: [{ name: 'exitType', value: ExitType.ByAdmin }] } })).body.data.paging.totalCount;
    const orderTotal = async () => (await ctx.api('POST', '/api/order/search', { token: employee, body: { filter: bySymbol } })).body.data.paging.totalCount;
    expect([await exitTotal(), await orderTotal()]).toEqual([0, 0]);
    await ctx.deps.db.insert(exitAudits).values({ strategyId: 'BTC1', exitType: ExitType.ByAdmin, message: 'Closed by admin' });
    await ctx.deps.db.insert(orders).values([{ strategyId: 'BTC1', side: 1, entryType: OrderEntryType.Api }, { strategyId: 'ETH1', side: 1, entryType: OrderEntryType.Api }]);
    expect([await exitTotal(), await orderTotal()]).toEqual([1, 1]);
    await client.query('begin');
    await client.query(`insert into exit_audits (strategy_id, exit_type, message) values ('BTC1', 1, 'Closed by admin')`);
    await client.query(`insert into orders (strategy_id, side, entry_type) values ('BTC1', 1, 2)`);
    expect([await exitTotal(), await orderTotal()]).toEqual([1, 1]);
    await client.query('commit');
    expect([await exitTotal(), await orderTotal()]).toEqual([2, 2]);
  });
});
