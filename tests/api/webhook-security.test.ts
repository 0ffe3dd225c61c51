import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as drizzleMigrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AccountType, AmountType, CustomerGroup } from '../../contract/enums';
import { createDb } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { sealLegacyWebhookTokens } from '../../server/modules/strategies/webhook-token';
import { WEBHOOK_JSON_LIMITS } from '../../contract/api/webhook';
import { insertStrategy, tradingCustomer } from '../engine/fixtures';
import { personWithToken } from '../helpers/fixtures';
import { adminQuery, databaseUrl } from '../helpers/pg-admin';
import { createTestContext, type TestContext } from '../helpers/test-app';

const groups = [{ group: CustomerGroup.Gold, investType: AmountType.Dollar, amount: 100 }];
const post = (ctx: TestContext, url: string, payload: string, contentType = 'application/json') =>
  ctx.api('POST', url, { payload, headers: { 'content-type': contentType } });

async function rows(ctx: TestContext, table: 'orders' | 'signals' | 'entry_audits', strategyId: string): Promise<number> {
  const result = await ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)} where strategy_id = ${strategyId}`);
  return Number(result.rows[0]!.n);
}

/** Every column of every strategy row as text: what a database dump holds. */
async function strategiesDump(ctx: TestContext): Promise<string> {
  const result = await ctx.handle.pool.query('select s::text as row from strategies s');
  return result.rows.map((row: { row: string }) => row.row).join('\n');
}

describe('webhook alerts must say what they want', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await tradingCustomer(ctx, null, { exchange: 'bybit', group: CustomerGroup.Gold });
  });
  afterAll(async () => ctx?.close());

  it('refuses {}, an empty body and JSON without a recognisable action with 400 and one entry-audit row each', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    const noAction =
      'The alert could not be understood: the JSON alert names no action; add "action" (open, long, short, buy, sell, close, exit, flat), TradingView\'s "strategy.order.action" or "market_position".';
    const empty = 'The alert could not be understood: the alert is empty; send a message such as open or close, or JSON such as {"action":"open"}.';
    const cases: Array<[string, string, string]> = [
      ['{}', 'application/json', noAction],
      ['', 'application/json', empty],
      ['   \n ', 'text/plain', empty],
      ['{"foo":1,"bar":"baz"}', 'application/json', noAction],
      ['{"ticker":"BTCUSDT.P","price":60000}', 'text/plain', noAction],
      ['{"action":""}', 'application/json', noAction],
    ];
    for (const [payload, type, message] of cases) {
      const answer = await post(ctx, strategy.url, payload, type);
      expect([JSON.stringify(payload), answer.status, answer.body]).toEqual([JSON.stringify(payload), 400, { successful: false, data: null, error: { message } }]);
    }
    expect(await rows(ctx, 'entry_audits', strategy.id)).toBe(cases.length);
    expect([await rows(ctx, 'orders', strategy.id), await rows(ctx, 'signals', strategy.id)]).toEqual([0, 0]);
  });

  it('refuses a plain-text alert with a NUL byte, and JSON text with \\u0000 or a lone surrogate, with 400 and an entry-audit row', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    const message =
      'The alert could not be understood: the alert contains a NUL character or broken Unicode, which cannot be stored; send plain text or JSON.';
    for (const [payload, type] of [
      ['open\u0000', 'text/plain'],
      ['BTCUSDT.P \u0000 long', 'text/plain'],
      ['{"action":"open","alert_id":"a\\u0000b"}', 'application/json'],
      ['{"action":"open","ticker":"BTC\\ud800"}', 'application/json'],
    ]) {
      const answer = await post(ctx, strategy.url, payload!, type);
      expect([answer.status, answer.body.error?.message]).toEqual([400, message]);
    }
    expect(await rows(ctx, 'entry_audits', strategy.id)).toBe(4);
    const audit = await ctx.deps.db.execute<{ message: string }>(sql`select message from entry_audits where strategy_id = ${strategy.id} order by id desc limit 1`);
    expect(audit.rows[0]!.message).toBe('Webhook alert refused: the alert contains a NUL character or broken Unicode, which cannot be stored; send plain text or JSON');
    expect(await rows(ctx, 'orders', strategy.id)).toBe(0);
  });

  it('refuses JSON nested too deep or holding too many values with 400 and an entry-audit row, before parsing it', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    const deep = (levels: number) => `{"action":"open","x":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    const wide = (values: number) => `{"action":"open","x":[${Array.from({ length: values }, () => '1').join(',')}]}`;
    const tooDeep = `The alert could not be understood: the JSON is nested deeper than ${WEBHOOK_JSON_LIMITS.maxDepth} levels; a TradingView alert is a flat object such as {"action":"open"}.`;
    const tooWide = `The alert could not be understood: the JSON holds more than ${WEBHOOK_JSON_LIMITS.maxItems} keys and values; a TradingView alert is a flat object such as {"action":"open"}.`;
    const cases: Array<[string, string]> = [
      [deep(9_000), tooDeep],
      [`{"action":"open","x":${'{"a":'.repeat(3_000)}1${'}'.repeat(3_000)}}`, tooDeep],
      [deep(WEBHOOK_JSON_LIMITS.maxDepth), tooDeep],
      [wide(30_000), tooWide],
      [wide(WEBHOOK_JSON_LIMITS.maxItems), tooWide],
    ];
    for (const [payload, message] of cases) {
      const answer = await post(ctx, strategy.url, payload, 'application/json');
      expect([payload.length, answer.status, answer.body]).toEqual([payload.length, 400, { successful: false, data: null, error: { message } }]);
    }
    expect(await rows(ctx, 'entry_audits', strategy.id)).toBe(cases.length);
    // Just within the bounds, and brackets inside strings do not count: understood.
    const within = `{"action":"open","alert_id":"${'['.repeat(500)}","x":${'['.repeat(WEBHOOK_JSON_LIMITS.maxDepth - 2)}${']'.repeat(WEBHOOK_JSON_LIMITS.maxDepth - 2)}}`;
    expect((await post(ctx, strategy.url, within)).body.data).toMatchObject({ action: 'open', duplicate: false });
    expect((await post(ctx, strategy.url, wide(WEBHOOK_JSON_LIMITS.maxItems - 5).replace('"open"', '"close"'))).body.data).toMatchObject({ action: 'close' });
  });

  it('still opens on a non-empty plain-text alert without an action (ARCHITECTURE 6) and on TradingView order actions', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    expect((await post(ctx, strategy.url, 'BTCUSDT.P', 'text/plain')).body.data).toMatchObject({ action: 'open', executions: 1 });
    expect((await post(ctx, strategy.url, '{"strategy":{"order":{"action":"buy"}},"alert_id":"tv-1"}')).body.data).toMatchObject({ action: 'open' });
    expect((await post(ctx, strategy.url, '{"market_position":"flat","alert_id":"tv-2"}')).body.data).toMatchObject({ action: 'close' });
  });
});

describe('webhook tokens at rest and who sees them', () => {
  let ctx: TestContext;
  let admin: string;
  let employee: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    admin = (await personWithToken(ctx, AccountType.Admin)).token;
    employee = (await personWithToken(ctx, AccountType.Employee)).token;
  });
  afterAll(async () => ctx?.close());

  it('stores no plaintext token: a dump of the strategies table holds only its hash and a sealed copy', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    const rotated = await ctx.api('POST', `/api/strategy/${strategy.id}/webhook/rotate`, { token: admin });
    const token = (rotated.body.data.webhookUrl as string).split('/').at(-1)!;
    const dump = await strategiesDump(ctx);
    expect(dump).toContain(strategy.id);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(strategy.token);
    expect(dump).not.toContain(Buffer.from(token).toString('base64'));
    // The rotated URL works and the old one is dead.
    expect((await post(ctx, `/api/webhook/${token}`, 'open', 'text/plain')).status).toBe(200);
    expect((await post(ctx, strategy.url, 'open', 'text/plain')).status).toBe(404);
  });

  it('shows the webhook URL to admins only; employees learn that it exists', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 1, volume: 100 }], groups });
    const asAdmin = await ctx.api('GET', `/api/strategy/${strategy.id}`, { token: admin });
    expect(asAdmin.body.data).toMatchObject({ webhookUrl: `${ctx.config.publicUrl}${strategy.url}`, hasWebhook: true });
    const asEmployee = await ctx.api('GET', `/api/strategy/${strategy.id}`, { token: employee });
    expect(asEmployee.body.data).toMatchObject({ webhookUrl: null, hasWebhook: true });
    for (const [url, body] of [
      ['/api/strategy/search', { filter: [{ name: 'id', value: strategy.id }] }],
      ['/api/strategy/sorting/symbol', { pageSize: 100 }],
    ] as const) {
      const list = await ctx.api('POST', url, { token: employee, body });
      expect(list.body.data.data.length).toBeGreaterThan(0);
      expect(list.body.data.data.every((row: { webhookUrl: string | null; hasWebhook: boolean }) => row.webhookUrl === null && row.hasWebhook)).toBe(true);
      expect(JSON.stringify(list.body)).not.toContain(strategy.token);
    }
  });
});

describe('the migration converts webhook tokens stored before hashing', () => {
  const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/db/migrations');
  const name = `t_legacy_${Date.now().toString(36)}`;
  let ctx: TestContext;

  afterAll(async () => {
    await ctx?.close();
  });

  it('keeps every old URL working, lets admins read it, and leaves no plaintext once the server started', async () => {
    const adminUrl = inject('pgAdminUrl');
    await adminQuery(adminUrl, `create database "${name}"`);
    const url = databaseUrl(adminUrl, name);
    // The database as the previous release left it: migrations up to 0014.
    const before = mkdtempSync(path.join(tmpdir(), 'migrations-0014-'));
    try {
      cpSync(migrationsDir, before, { recursive: true });
      const journalFile = path.join(before, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ idx: number; tag: string }> };
      const last = journal.entries.findIndex((entry) => entry.tag === '0014_customer_list_version_sync');
      writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
      const old = createDb(url, { max: 1 });
      await drizzleMigrate(drizzle(old.pool), { migrationsFolder: before });
      await old.pool.query(
        `insert into strategies (id, symbol, entry_direction, leverage, position_mode, take_profit_type, take_profit_mode, tp1_target_level, tp1_close_volume, stop_loss_type, stop_loss_amount, webhook_token)
         values ('OLD1', 'BTCUSDT', 1, 10, 1, 3, 1, 1, 100, 3, 2, 'legacy-plaintext-token-0123456789')`,
      );
      // This release: the migrations hash the token; the first start seals it and clears the plaintext.
      await migrate(old.pool);
      const hashed = await old.pool.query("select webhook_token, webhook_token_hash from strategies where id = 'OLD1'");
      expect(hashed.rows).toEqual([{ webhook_token: 'legacy-plaintext-token-0123456789', webhook_token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      await old.close();
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
    ctx = await createTestContext({ database: { url, name, drop: () => adminQuery(adminUrl, `drop database if exists "${name}" with (force)`) } });
    expect(await sealLegacyWebhookTokens(ctx.deps.db, ctx.deps.secrets)).toBe(1);
    expect(await sealLegacyWebhookTokens(ctx.deps.db, ctx.deps.secrets)).toBe(0);
    expect(await strategiesDump(ctx)).not.toContain('legacy-plaintext-token-0123456789');
    const answer = await post(ctx, '/api/webhook/legacy-plaintext-token-0123456789', '{"action":"open"}');
    expect([answer.status, answer.body.data?.action]).toEqual([200, 'open']);
    const admin = await personWithToken(ctx, AccountType.Admin);
    const shown = await ctx.api('GET', '/api/strategy/OLD1', { token: admin.token });
    expect(shown.body.data.webhookUrl).toBe(`${ctx.config.publicUrl}/api/webhook/legacy-plaintext-token-0123456789`);
  });
});
