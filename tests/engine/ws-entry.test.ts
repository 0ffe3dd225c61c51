import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import type { RunningSandbox } from '../../server/sandbox/index';
import { startExactSandbox } from '../../server/sandbox/test-support';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createExchangeAdapters } from '../../server/trading/exchanges/index';
import { ExchangeRateLimiter } from '../../server/trading/exchanges/rate-limiter';
import { recordingFetch } from '../../server/trading/exchanges/recording-fetch';
import type { ExchangeAdapter, ExchangeId } from '../../server/trading/exchanges/types';
import { useExchangeAccess } from '../../server/trading/exchanges/for-deps';
import { startDispatcher } from '../../server/trading/start';
import { guardedFetch } from '../helpers/fetch-guard';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, openPositions, tradingCustomer, waitFor, type TradingCustomer } from './fixtures';

/**
 * The engine is unaware of the order-entry path: the same executions, legs and client ids whether the
 * Bybit adapter sends creates over the account's warm /v5/trade session or over REST.
 */
describe('Bybit order entry over warm sessions, through the engine', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let dispatcher: Dispatcher;
  let adapters: Record<ExchangeId, ExchangeAdapter>;
  const recorder = recordingFetch(guardedFetch);
  const restCreates = () => recorder.requests.filter((r) => r.method === 'POST' && r.path === '/v5/order/create').length;

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startExactSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
    adapters = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, fetchImplementation: recorder.fetch, limiter: new ExchangeRateLimiter(), bybitOrderEntry: 'websocket' });
    useExchangeAccess(ctx.deps, { sandboxUrl: sandbox.url, adapters });
    dispatcher = await startDispatcher(ctx.deps, ctx.handle.pool, { config: { syncIntervalMs: 60_000, safetyPollMs: 1_000 } });
  });
  afterAll(async () => {
    adapters.bybit.closeSessions();
    await dispatcher.stop();
    await sandbox.close();
    await ctx.close();
  });
  afterEach(() => adapters.bybit.closeSessions());

  async function goldCustomer(): Promise<TradingCustomer & { sandbox: NonNullable<TradingCustomer['sandbox']> }> {
    await ctx.deps.db.execute(sql`update customers set "group" = ${CustomerGroup.Occasion} where "group" = ${CustomerGroup.Gold}`);
    const customer = await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold });
    return customer as TradingCustomer & { sandbox: NonNullable<TradingCustomer['sandbox']> };
  }

  it('the entry (with its attached stop) and both TP legs go over the session; REST only reads', async () => {
    const customer = await goldCustomer();
    // The dispatcher's warm accounts open the new customer's session on their own (NOTIFY of the stored key).
    await waitFor('the session warm', async () => (await adapters.bybit.warmSessions([customer.sandbox])).open === 1, 30_000);
    const before = restCreates();
    const strategy = await insertStrategy(ctx, { tp: [{ target: 2, volume: 50 }, { target: 4, volume: 50 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    const { orderId, rows } = await openPositions(ctx, strategy.url);
    expect(rows.map((row) => row.state)).toEqual(['open']);
    const orders = sandbox.control.account(customer.sandbox.uid).orders;
    const id = rows[0]!.client_order_id;
    expect(orders.filter((o) => o.clientOrderId.startsWith(id.replace(/-e$/, ''))).map((o) => [o.clientOrderId.slice(id.length - 1), o.kind, o.qty])).toEqual([
      ['e', 'normal', 0.01],
      ['tp1', 'conditional', 0.005],
      ['tp2', 'conditional', 0.005],
    ]);
    expect(orders.find((o) => o.kind === 'tpsl')).toMatchObject({ triggerPrice: expect.any(Number), qty: 0.01 });
    expect(restCreates() - before).toBe(0);
    expect(sandbox.control.counters().tradeSockets).toMatchObject({ opened: 1 });
    expect((await executionsOf(ctx, orderId)).map((row) => row.state)).toEqual(['open']);
  });

  it('a session dropped while the entry is in flight: the entry is found by its client id and exists once', async () => {
    const customer = await goldCustomer();
    await adapters.bybit.warmSessions([customer.sandbox]);
    sandbox.control.setFaults([{ route: '/v5/order/create', method: 'WS', account: customer.sandbox.uid, timeoutShare: 1, remaining: 1 }]);
    const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    const dropWhenApplied = setInterval(() => {
      if (sandbox.control.account(customer.sandbox.uid).orders.length > 0) {
        clearInterval(dropWhenApplied);
        sandbox.control.dropTradeSockets(customer.sandbox.uid);
      }
    }, 10);
    const before = restCreates();
    try {
      const { rows } = await openPositions(ctx, strategy.url);
      // The held answer was the entry's, and the socket was cut under it.
      expect(sandbox.control.faults()).toMatchObject([{ remaining: 0 }]);
      expect(recorder.requests.filter((r) => r.method === 'POST' && r.path === '/v5/order/create' && r.body?.includes(rows[0]!.client_order_id))).toEqual([]);
      expect(restCreates() - before).toBe(0);
      expect(rows.map((row) => row.state)).toEqual(['open']);
      const entries = sandbox.control.account(customer.sandbox.uid).orders.filter((o) => o.clientOrderId === rows[0]!.client_order_id);
      expect(entries).toHaveLength(1);
      expect(sandbox.control.account(customer.sandbox.uid).positions).toMatchObject([{ symbol: 'BTCUSDT', size: 0.01 }]);
    } finally {
      clearInterval(dropWhenApplied);
      sandbox.control.setFaults([]);
    }
  });
});
