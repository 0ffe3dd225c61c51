import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import { startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import type { Dispatcher } from '../../server/trading/dispatcher';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { entryStopQty, executionsOf, insertStrategy, startEngine, stopsOf, tradingCustomer, waitFor, type TradingCustomer } from './fixtures';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('a worker killed mid fan-out leaves nothing stuck and nothing doubled', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;
  let worker: ChildProcess | undefined;
  let dispatcher: Dispatcher | undefined;

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
  });
  afterAll(async () => {
    if (worker && worker.exitCode === null) worker.kill('SIGKILL');
    await dispatcher?.stop();
    await Promise.race([sandbox.close(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
    await ctx.close();
  });

  it('SIGKILL a real `server/worker.ts` while executions are in flight; another process resumes: one order per customer', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });
    const customers: TradingCustomer[] = [];
    for (let i = 0; i < 12; i += 1) customers.push(await tradingCustomer(ctx, sandbox, { exchange: i % 2 === 0 ? 'bybit' : 'bitget', group: CustomerGroup.Gold }));
    sandbox.control.setFaults([{ latencyMs: { min: 150, max: 400 } }]);

    const answer = await ctx.api('POST', strategy.url, { payload: '{"action":"open","alert_id":"crash"}', headers: { 'content-type': 'application/json' } });
    expect(answer.body.data.executions).toBe(12);
    const orderId = answer.body.data.orderId as number;

    worker = spawn(process.execPath, ['--import', 'tsx', 'server/worker.ts'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: ctx.database.url,
        MASTER_KEY: ctx.config.masterKey,
        DATA_DIR: ctx.config.dataDir,
        SANDBOX_URL: sandbox.url,
        EXCHANGE_MODE: 'sandbox',
        LOG_LEVEL: 'error',
        DISPATCH_LEASE_MS: '3000',
        POSITION_SYNC_INTERVAL_MS: '60000',
      },
    });
    // Kill once the worker holds claims and has finished some entries but not all.
    await waitFor(
      'worker mid fan-out',
      async () => {
        const rows = await executionsOf(ctx, orderId);
        const claimed = rows.filter((row) => row.claimed_by !== null).length;
        const open = rows.filter((row) => row.state === 'open').length;
        return claimed > 0 && open >= 1 && rows.some((row) => row.protected_at === null);
      },
      30_000,
    );
    worker.kill('SIGKILL');
    await new Promise((resolve) => worker!.once('exit', resolve));
    const atKill = await executionsOf(ctx, orderId);
    expect(atKill.filter((row) => row.claimed_by !== null).length).toBeGreaterThan(0);

    dispatcher = await startEngine(ctx, sandbox, { leaseMs: 3_000 });
    const rows = await waitFor(
      'every execution resumed and protected',
      async () => {
        const list = await executionsOf(ctx, orderId);
        return list.every((row) => row.state === 'open' && row.protected_at !== null && row.claimed_by === null) ? list : undefined;
      },
      45_000,
    );
    for (const customer of customers) {
      const row = rows.find((r) => r.customer_id === customer.customerId)!;
      const state = sandbox.control.account(customer.sandbox!.uid);
      const entries = state.orders.filter((o) => o.clientOrderId === row.client_order_id);
      // One take-profit and one stop, sized to the position: on Bybit both may be the ones the entry carried (tpslMode Partial).
      const open = state.orders.filter((o) => ['new', 'untriggered'].includes(o.status));
      const takeProfits = open.filter((o) => /-tp1(r\d+)?$/.test(o.clientOrderId) || (o.clientOrderId === '' && o.labels.tpsl === 'tp'));
      const stops = stopsOf(state);
      const size = state.positions.filter((p) => p.size > 0).reduce((sum, p) => sum + p.size, 0);
      expect([customer.exchange, entries.length, takeProfits.map((o) => o.qty), stops.length, size]).toEqual([customer.exchange, 1, [0.01], 1, 0.01]);
      // The one stop is this execution's: the entry's own (sized on Bybit, the position's preset on Bitget), or its
      // replacement of its own size when the fill (against the book) moved the level.
      expect([entryStopQty(customer.exchange, 0.01), 0.01]).toContain(stops[0]!.qty);
    }
    const workers = await ctx.deps.db.execute<{ n: number }>(sql`select count(distinct split_part(claimed_by, ':', 2))::int as n from executions where claimed_by is not null`);
    expect(workers.rows[0]!.n).toBe(0);
  });
});
