import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, CustomerGroup, EntryDirection } from '../../contract/enums';
import { loadConfig } from '../../server/config';
import { countByReason, skipReasonOf as reasonOf } from '../../server/metrics/skip-reasons';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { useExchangeAccess } from '../../server/trading/exchanges/for-deps';
import { balanceRefusal, leverageRefusal, notionalRefusal, positionsRefusal, slippageRefusal } from '../../server/trading/guards';
import { PAUSE_SKIP_MESSAGES } from '../../server/trading/pauses';
import { conflictMessage, leverageHeldMessage } from '../../server/trading/position-sharing';
import { goldStrategy, openPositions, startEngine, tradingCustomer, waitFor } from '../engine/fixtures';
import { personWithToken } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

const TOKEN = 'metrics-token-for-tests-0123456789';
const ENTRY_DEADLINE_MS = 3_000;

/** The value of one series of the Prometheus text, e.g. `copytrade_executions{state="open"}`; undefined when absent. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics, /healthz, /readyz', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;
  const scrape = async () => {
    const answer = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.statusCode).toBe(200);
    return answer.body;
  };

  beforeAll(async () => {
    const defaults = loadConfig({});
    ctx = await createTestContext({ config: { metricsToken: TOKEN, trading: { ...defaults.trading, entryDeadlineMs: ENTRY_DEADLINE_MS } } });
    sandbox = await startExactSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
    dispatcher = await startEngine(ctx, sandbox);
  });
  afterAll(async () => {
    await dispatcher.stop();
    await sandbox.close();
    await ctx.close();
  });

  it('refuses a missing or wrong token with 401 in the envelope', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${TOKEN}x`, TOKEN, `bearer  ${TOKEN}`]) {
      const answer = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ successful: false, data: null, error: { message: 'GET /metrics needs the header Authorization: Bearer <METRICS_TOKEN>.' } });
    }
  });

  it('shows the executions an alert opened, its latency, limiter headroom, and skips by reason', async () => {
    await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold });
    await tradingCustomer(ctx, sandbox, { exchange: 'bitget', group: CustomerGroup.Gold });
    const before = await scrape();
    expect(valueOf(before, 'copytrade_executions{state="open"}')).toBe(0);
    const firstBefore = valueOf(before, 'copytrade_alert_to_first_order_seconds_count') ?? 0;
    const lastBefore = valueOf(before, 'copytrade_alert_to_last_order_seconds_count') ?? 0;

    const strategy = await goldStrategy(ctx);
    const { rows } = await openPositions(ctx, strategy.url);
    expect(rows.map((row) => row.state)).toEqual(['open', 'open']);
    const after = await scrape();
    expect(valueOf(after, 'copytrade_executions{state="open"}')).toBe(2);
    expect(valueOf(after, 'copytrade_executions{state="pending"}')).toBe(0);
    expect(valueOf(after, 'copytrade_execution_queue_depth')).toBe(0);
    expect(valueOf(after, 'copytrade_alert_to_first_order_seconds_count')).toBe(firstBefore + 1);
    for (const exchange of ['bybit', 'bitget'] as const) {
      const window = ctx.deps.exchanges.adapters[exchange].health!().addresses.find((a) => a.egress === 'default')!;
      const headroom = valueOf(after, `copytrade_limiter_headroom{exchange="${exchange}",address="default"}`)!;
      // Within the window's bounds: how much of it the entries still hold depends on how long ago they went out.
      expect(headroom).toBeGreaterThanOrEqual(0);
      expect(headroom).toBeLessThanOrEqual(window.limit);
    }
    // The Order's last entry is known once its entry deadline has passed.
    await waitFor('the last-order latency', async () => valueOf(await scrape(), 'copytrade_alert_to_last_order_seconds_count') === lastBefore + 1, ENTRY_DEADLINE_MS + 20_000);

    const admin = await personWithToken(ctx, AccountType.Admin);
    await ctx.api('PUT', `/api/strategy/${strategy.id}/pause`, { token: admin.token, body: { paused: true } });
    const skipped = await ctx.api('POST', strategy.url, { payload: '{"action":"open","alert_id":"m-1"}', headers: { 'content-type': 'application/json' } });
    expect(skipped.status).toBe(200);
    expect(valueOf(await scrape(), 'copytrade_entry_skips_recent{reason="strategy paused"}')).toBe(1);
  });

  it('shows an address ban while it lasts, and the reconciler findings staff were told of', async () => {
    await ctx.deps.db.execute(sql`insert into egress_bans (exchange, egress, since, until, reason) values ('bybit', 'default', now(), now() + interval '10 minutes', 'HTTP 403')`);
    const customer = (await ctx.deps.db.execute<{ id: number }>(sql`select id from customers order by id limit 1`)).rows[0]!.id;
    await ctx.deps.db.execute(sql`insert into reconciler_findings (customer_id, symbol, side, kind, size) values (${customer}, 'ETHUSDT', 'long', 'untracked', 1)`);
    const text = await scrape();
    expect(valueOf(text, 'copytrade_address_bans{exchange="bybit",address="default"}')).toBe(1);
    expect(valueOf(text, 'copytrade_reconciler_findings{kind="untracked"}')).toBe(1);
    await ctx.deps.db.execute(sql`update egress_bans set until = now() - interval '1 second'`);
    expect(valueOf(await scrape(), 'copytrade_address_bans{exchange="bybit",address="default"}')).toBeUndefined();
  });

  it('labels the engine\'s own skip texts with their reasons', () => {
    expect(reasonOf(PAUSE_SKIP_MESSAGES.strategy)).toBe('strategy paused');
    expect(reasonOf(PAUSE_SKIP_MESSAGES.customer)).toBe('customer paused');
    expect(reasonOf(PAUSE_SKIP_MESSAGES.platform)).toBe('platform paused');
    expect(reasonOf(conflictMessage({ symbol: 'BTCUSDT', side: EntryDirection.Long }, 'ETH001', 'nets'))).toBe('position shared');
    expect(reasonOf('Webhook alert of 2026-01-01T00:00:00.000Z arrived more than 60 s late; no order was placed')).toBe('alert too old');
    expect(reasonOf('Webhook alert refused: unknown action word "hodl"')).toBe('alert refused');
    expect(reasonOf(leverageHeldMessage('BTCUSDT', { strategyId: 'X', leverage: 5 }, 10))).toBe('position shared');
    expect(reasonOf('The entry could not be placed within 30 s of the alert, so it was dropped (a late entry is worse than none)')).toBe('entry deadline');
    expect(reasonOf(slippageRefusal(60_000, { last: 60_400, mark: 60_400, bid: 60_390, ask: 60_410 }, 'long', 50)!)).toBe('slippage');
    expect(reasonOf(leverageRefusal(5, 10, 'S1')!)).toBe('max leverage');
    expect(reasonOf(notionalRefusal(500, 0.01, 60_000, 'BTCUSDT')!)).toBe('max notional');
    expect(reasonOf(positionsRefusal(2, 2, false)!)).toBe('max open positions');
    expect(reasonOf(balanceRefusal(1_000, 250.5)!)).toBe('min free balance');
    expect(reasonOf(balanceRefusal(1_000, null)!)).toBe('min free balance');
    expect(reasonOf('Bybit refused the entry: insufficient balance')).toBe('other');
    expect(countByReason({ [PAUSE_SKIP_MESSAGES.customer]: 3, 'Bybit refused': '2' }, 9)).toEqual({ 'customer paused': 3, other: 6 });
  });

  it('serves every series the Grafana dashboard in ops/grafana reads', async () => {
    const dashboard = readFileSync(new URL('../../ops/grafana/copytrade.json', import.meta.url), 'utf8');
    const read = new Set([...dashboard.matchAll(/copytrade_[a-z0-9_]+/g)].map((match) => match[0].replace(/_bucket$/, '')));
    const served = new Set([...(await scrape()).matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]!));
    expect([...read].filter((name) => !served.has(name))).toEqual([]);
    expect(read.size).toBeGreaterThan(10);
  });

  it('answers /healthz, and /readyz 200 with the sandbox up', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect([health.statusCode, health.json()]).toEqual([200, { successful: true, data: { status: 'up' }, error: null }]);
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect([ready.statusCode, ready.json().data]).toEqual([200, { ready: true, database: true, exchanges: { bybit: true, bitget: true } }]);
  });
});

describe('without METRICS_TOKEN, or with the exchanges down', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('has no /metrics route (404), and /readyz answers 503 naming what is down', async () => {
    const metrics = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer anything' } });
    expect([metrics.statusCode, metrics.json().error.message]).toEqual([404, expect.stringContaining('/metrics')]);
    useExchangeAccess(ctx.deps, { sandboxUrl: 'http://127.0.0.1:9/sandbox' });
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      successful: false,
      data: { ready: false, database: true, exchanges: { bybit: false, bitget: false } },
      error: { message: 'Not ready: bybit, bitget did not answer.' },
    });
  });
});
