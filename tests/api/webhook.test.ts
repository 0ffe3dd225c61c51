import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, EntryDirection } from '../../contract/enums';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, tradingCustomer, waitFor } from '../engine/fixtures';

const post = (ctx: TestContext, url: string, payload: string, contentType = 'application/json') =>
  ctx.api('POST', url, { payload, headers: { 'content-type': contentType } });

async function count(ctx: TestContext, table: 'orders' | 'signals' | 'entry_audits' | 'exit_audits', strategyId: string): Promise<number> {
  const result = await ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)} where strategy_id = ${strategyId}`);
  return Number(result.rows[0]!.n);
}

async function lastAudit(ctx: TestContext, table: 'entry_audits' | 'exit_audits', strategyId: string): Promise<string | undefined> {
  const result = await ctx.deps.db.execute<{ message: string }>(sql`select message from ${sql.identifier(table)} where strategy_id = ${strategyId} order by id desc limit 1`);
  return result.rows[0]?.message;
}

const groups = [{ group: CustomerGroup.Gold, investType: AmountType.Dollar, amount: 100 }];

describe('POST /api/webhook/:token', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await tradingCustomer(ctx, null, { exchange: 'bybit', group: CustomerGroup.Gold });
    await tradingCustomer(ctx, null, { exchange: 'bitget', group: CustomerGroup.Gold });
  });
  afterAll(() => ctx.close());

  it('opens in the strategy direction for a plain-text alert without an action or a JSON open, within one transaction', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    const answer = await post(ctx, strategy.url, 'BTCUSDT.P', 'text/plain');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ successful: true, data: { action: 'open', duplicate: false, executions: 2, skipped: 0, closing: 0, message: 'Webhook received successfully' } });
    const rows = await executionsOf(ctx, answer.body.data.orderId);
    expect(rows.map((row) => [row.state, row.client_order_id])).toEqual(rows.map((row) => ['pending', `ct${answer.body.data.orderId}-${row.customer_id}-e`]));
    const text = await post(ctx, strategy.url, 'BINANCE:BTCUSDT.P long', 'text/plain');
    expect(text.body.data).toMatchObject({ action: 'open', executions: 2 });
    const json = await post(ctx, strategy.url, '{"action":"open","alert_id":"json-open"}');
    expect(json.body.data).toMatchObject({ action: 'open', executions: 2 });
    expect(await count(ctx, 'orders', strategy.id)).toBe(3);
  });

  it('acts once on the same alert id, on the same body within the window, and when identical alerts race', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    const body = '{"action":"open","alert_id":"bar-1","ticker":"BTCUSDT.P"}';
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await post(ctx, strategy.url, body));
    expect(answers.map((a) => [a.status, a.body.data.duplicate])).toEqual([[200, false], [200, true], [200, true], [200, true]]);
    expect(await count(ctx, 'orders', strategy.id)).toBe(1);

    const raced = await Promise.all(Array.from({ length: 5 }, () => post(ctx, strategy.url, '{"action":"long","price":60000}')));
    expect(raced.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(raced.filter((a) => !a.body.data.duplicate)).toHaveLength(1);
    expect(await count(ctx, 'orders', strategy.id)).toBe(2);

    ctx.clock.advance(11_000);
    const later = await post(ctx, strategy.url, '{"action":"long","price":60000}');
    expect(later.body.data.duplicate).toBe(false);
    const sameId = await post(ctx, strategy.url, '{"action":"open","alert_id":"bar-1"}');
    expect(sameId.body.data.duplicate).toBe(true);
    expect(await count(ctx, 'orders', strategy.id)).toBe(3);
  });

  it('refuses bodies it cannot understand with 400 and an entry audit, and a ticker of another symbol', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    const cases: Array<[string, string, string]> = [
      ['{"action":"hold"}', 'application/json', "The alert could not be understood: action 'hold' is not one of open, entry, enter, close, exit, flat, long, buy, short, sell."],
      ['{"action":', 'text/plain', 'The alert could not be understood: the body looks like JSON but is not valid JSON.'],
      ['please buy now', 'text/plain', "The alert could not be understood: could not understand 'please' in the alert text; send JSON such as {\"action\":\"close\"} or a word such as close."],
      ['{"action":"open","ticker":"ETHUSDT.P"}', 'application/json', "The alert was refused: ticker ETHUSDT.P is not this strategy's symbol BTCUSDT."],
      ['{"action":"open","timestamp":"yesterday-ish"}', 'application/json', 'The alert could not be understood: timestamp is not a date (use TradingView {{timenow}} or epoch milliseconds).'],
    ];
    for (const [payload, type, message] of cases) {
      const answer = await post(ctx, strategy.url, payload, type);
      expect([answer.status, answer.body.successful, answer.body.error?.message]).toEqual([400, false, message]);
    }
    expect(await count(ctx, 'entry_audits', strategy.id)).toBe(cases.length);
    expect(await lastAudit(ctx, 'entry_audits', strategy.id)).toBe('Webhook alert refused: timestamp is not a date (use TradingView {{timenow}} or epoch milliseconds)');
    expect(await count(ctx, 'orders', strategy.id)).toBe(0);
  });

  it('answers 404 for an unknown token and an inactive strategy', async () => {
    const inactive = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups, status: 2 });
    for (const url of ['/api/webhook/not-a-real-token', inactive.url]) {
      const answer = await post(ctx, url, '{}');
      expect([answer.status, answer.body.error?.message]).toEqual([404, 'No active strategy has this webhook URL: check the URL in the TradingView alert, or activate the strategy.']);
    }
  });

  it('follows strategy changes at once though token lookups are cached: deactivated, rotated, deleted, reactivated', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    expect((await post(ctx, strategy.url, '{"action":"open","alert_id":"c1"}')).status).toBe(200);
    // Cached now: the same URL is answered from memory until the strategies table changes.
    expect((await post(ctx, strategy.url, '{"action":"open","alert_id":"c2"}')).status).toBe(200);
    const answeredAfter = async (change: () => Promise<unknown>, expected: number, alertId: string) => {
      await change();
      // The change's NOTIFY reaches the cache a moment after the commit. Nothing else (no expiry) ends a cached answer,
      // so the new answer arriving at all shows the cache followed the change; the deadline only ends a failing wait.
      await waitFor(`answer ${expected}`, async () => (await post(ctx, strategy.url, `{"action":"open","alert_id":"${alertId}-${Math.random()}"}`)).status === expected, 30_000);
    };
    await answeredAfter(() => ctx.deps.db.execute(sql`update strategies set status = 2 where id = ${strategy.id}`), 404, 'inactive');
    await answeredAfter(() => ctx.deps.db.execute(sql`update strategies set status = 1 where id = ${strategy.id}`), 200, 'active');
    await answeredAfter(() => ctx.deps.db.execute(sql`update strategies set webhook_token_hash = 'rotated' where id = ${strategy.id}`), 404, 'rotated');
  });

  it('answers a close alert with no open position with 200 and an exit audit', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    for (const payload of ['{"action":"close"}', '{"strategy":{"market_position":"flat"},"alert_id":"x2"}', 'exit']) {
      const answer = await post(ctx, strategy.url, payload, 'text/plain');
      expect([answer.status, answer.body.data.action, answer.body.data.closing]).toEqual([200, 'close', 0]);
    }
    expect(await count(ctx, 'exit_audits', strategy.id)).toBe(3);
    expect(await lastAudit(ctx, 'exit_audits', strategy.id)).toBe(`Close alert received for strategy ${strategy.id} with no open position: nothing to close`);
  });

  it('maps TradingView buy/sell to open or close by the strategy direction and marks open executions for closing', async () => {
    // Another symbol: these customers still hold long BTCUSDT entries of the tests above, which a short would net against.
    const strategy = await insertStrategy(ctx, { symbol: 'ETHUSDT', tp: [{ target: 1, volume: 100 }], groups, entryDirection: EntryDirection.Short });
    const open = await post(ctx, strategy.url, '{"action":"sell","alert_id":"s1"}');
    expect(open.body.data).toMatchObject({ action: 'open', executions: 2 });
    const close = await post(ctx, strategy.url, '{"action":"buy","alert_id":"s2"}');
    expect(close.body.data).toMatchObject({ action: 'close', closing: 2 });
    const again = await post(ctx, strategy.url, '{"action":"buy","alert_id":"s3"}');
    expect(again.body.data).toMatchObject({ action: 'close', closing: 0 });
  });

  it('skips customers of a Receive Webhook Once group who already hold a position, with an audit', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    const first = await post(ctx, strategy.url, '{"action":"open","alert_id":"r1"}');
    expect(first.body.data).toMatchObject({ executions: 2, skipped: 0 });
    await ctx.deps.db.execute(sql`update webhook_group_settings set is_active = true where "group" = ${CustomerGroup.Gold}`);
    const second = await post(ctx, strategy.url, '{"action":"open","alert_id":"r2"}');
    expect(second.body.data).toMatchObject({ executions: 0, skipped: 2 });
    expect(await lastAudit(ctx, 'entry_audits', strategy.id)).toBe(
      `Receive Webhook Once is on for group Gold: the customer already holds a position of strategy ${strategy.id}, so this entry was skipped`,
    );
    await ctx.deps.db.execute(sql`update webhook_group_settings set is_active = false where "group" = ${CustomerGroup.Gold}`);
    const third = await post(ctx, strategy.url, '{"action":"open","alert_id":"r3"}');
    expect(third.body.data).toMatchObject({ executions: 2, skipped: 0 });
  });
});
