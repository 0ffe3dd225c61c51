import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import { startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import { ACCOUNT_SLICES } from '../../server/trading/accounts/leases';
import { loadContexts } from '../../server/trading/context';
import { EXECUTIONS_CHANNEL } from '../../server/trading/execution-state/queue';
import { findWebhookStrategy, receiveAlert } from '../../server/trading/intake';
import type { LocalRunner } from '../../server/trading/intake-state';
import { notificationsDelivered } from '../helpers/notifications';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, startEngine, tradingCustomer, waitFor } from './fixtures';

const groups = [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }];
const alert = (ctx: TestContext, url: string, id: string) => ctx.api('POST', url, { payload: `{"action":"open","alert_id":"${id}"}`, headers: { 'content-type': 'application/json' } });

/** A runner that records what it is handed (the real dispatcher is exercised below and by every engine test). */
function recordingRunner(freeSlots: number, slices: number[] | null = null, contextsInStatement = 500): LocalRunner & { adopted: number[][]; later: number[][] } {
  const adopted: number[][] = [];
  const later: number[][] = [];
  return {
    worker: 'test-runner',
    leaseMs: 15_000,
    freeSlots: () => freeSlots,
    slices: () => slices,
    prepare: () => undefined,
    contextsInStatement,
    adopt: (claimed, ids = []) => {
      adopted.push(claimed.map((ctx) => ctx.id));
      later.push([...ids]);
    },
    adopted,
    later,
  };
}

describe('in-process hand-off: the process that commits an alert starts its executions', () => {
  let ctx: TestContext;
  let listener: pg.Client;
  const notifications: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    for (let i = 0; i < 3; i += 1) await tradingCustomer(ctx, null, { exchange: 'bybit', group: CustomerGroup.Gold });
    listener = new pg.Client(ctx.database.url);
    await listener.connect();
    listener.on('notification', (message) => notifications.push(message.payload ?? ''));
    await listener.query(`listen ${EXECUTIONS_CHANNEL}`);
  });
  afterAll(async () => {
    await listener.end();
    await ctx.close();
  });

  it('claims the executions for the local dispatcher in the alert\'s statement, hands them over after the commit, and sends no NOTIFY', async () => {
    const runner = recordingRunner(10);
    const detach = ctx.deps.intake.handoff.attach(runner);
    const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups });
    notifications.length = 0;
    const answer = await alert(ctx, strategy.url, 'h1');
    detach();
    const orderId = answer.body.data.orderId as number;
    const rows = await executionsOf(ctx, orderId);
    expect(rows.map((row) => [row.claimed_by, row.attempts])).toEqual([['test-runner', 1], ['test-runner', 1], ['test-runner', 1]]);
    expect(runner.adopted).toEqual([rows.map((row) => row.id).sort((a, b) => a - b)]);
    // Every notification the alert's commit sent has arrived once the test's own marker has.
    expect(notifications).toEqual([await notificationsDelivered(listener, ctx.handle.pool, EXECUTIONS_CHANNEL)]);
  });

  it('claims only as many as the local dispatcher has room for; the rest are queued for any process and NOTIFY wakes them', async () => {
    const runner = recordingRunner(2);
    const detach = ctx.deps.intake.handoff.attach(runner);
    const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups });
    notifications.length = 0;
    const answer = await alert(ctx, strategy.url, 'h2');
    detach();
    const orderId = answer.body.data.orderId as number;
    const rows = await executionsOf(ctx, orderId);
    expect(rows.map((row) => row.claimed_by)).toEqual(['test-runner', 'test-runner', null]);
    expect(runner.adopted.flat()).toEqual(rows.slice(0, 2).map((row) => row.id));
    // Every notification the alert's commit sent has arrived once the test's own marker has.
    const marker = await notificationsDelivered(listener, ctx.handle.pool, EXECUTIONS_CHANNEL);
    expect(notifications).toEqual([String(orderId), marker]);
  });

  it('claims only the accounts of the slices the local dispatcher leases; the others are left to their owners', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups });
    const first = await alert(ctx, strategy.url, 'h4-probe');
    const customerIds = (await executionsOf(ctx, first.body.data.orderId)).map((row) => row.customer_id);
    const owned = customerIds[1]! % ACCOUNT_SLICES;
    const runner = recordingRunner(10, [owned]);
    const detach = ctx.deps.intake.handoff.attach(runner);
    const answer = await alert(ctx, strategy.url, 'h4');
    detach();
    const rows = await executionsOf(ctx, answer.body.data.orderId);
    expect(rows.map((row) => [row.customer_id, row.claimed_by])).toEqual(
      rows.map((row) => [row.customer_id, row.customer_id % ACCOUNT_SLICES === owned ? 'test-runner' : null]),
    );
    expect(rows.filter((row) => row.claimed_by === 'test-runner')).toHaveLength(1);
    expect(runner.adopted).toEqual([rows.filter((row) => row.claimed_by === 'test-runner').map((row) => row.id)]);
  });

  it('an entry alert is one statement on one connection: signal, Order, executions and claimed contexts, no BEGIN or COMMIT', async () => {
    const runner = recordingRunner(10);
    const detach = ctx.deps.intake.handoff.attach(runner);
    const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups });
    const found = await findWebhookStrategy(ctx.deps, strategy.token);
    // Every query text sent on a connection checked out meanwhile (the pool's clients patched, then restored).
    const sent: string[] = [];
    const patched: Array<() => void> = [];
    const watch = (client: pg.PoolClient) => {
      const target = client as unknown as { query: (...args: unknown[]) => unknown };
      const query = target.query;
      target.query = (...args: unknown[]) => {
        const first = args[0] as string | { text?: string };
        sent.push(typeof first === 'string' ? first : (first.text ?? ''));
        return query.apply(client, args);
      };
      patched.push(() => (target.query = query));
    };
    ctx.handle.intakePool.on('acquire', watch);
    let answer;
    try {
      answer = await receiveAlert(ctx.deps, { strategy: found!, alert: { action: 'open', alertId: 'one-statement', timestamp: null, price: null }, body: '{"action":"open"}', sourceIp: '127.0.0.1' });
    } finally {
      ctx.handle.intakePool.off('acquire', watch);
      for (const restore of patched) restore();
      detach();
    }
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/receive_alert\(/);
    expect(answer.executions).toBe(3);
    expect(runner.adopted.flat()).toHaveLength(3);
  });

  it('reads the contexts of the first claimed executions in the statement and hands the others over by id', async () => {
    const runner = recordingRunner(10, null, 1);
    const detach = ctx.deps.intake.handoff.attach(runner);
    const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups });
    notifications.length = 0;
    const answer = await alert(ctx, strategy.url, 'h5');
    detach();
    const rows = await executionsOf(ctx, answer.body.data.orderId);
    const ids = rows.map((row) => row.id).sort((a, b) => a - b);
    expect(rows.every((row) => row.claimed_by === 'test-runner')).toBe(true);
    expect(runner.adopted).toEqual([ids.slice(0, 1)]);
    expect(runner.later).toEqual([ids.slice(1)]);
    expect(notifications).toEqual([await notificationsDelivered(listener, ctx.handle.pool, EXECUTIONS_CHANNEL)]);
  });

  it('without a local dispatcher nothing is claimed and the dispatchers are woken as before', async () => {
    const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups });
    notifications.length = 0;
    const answer = await alert(ctx, strategy.url, 'h3');
    const rows = await executionsOf(ctx, answer.body.data.orderId);
    expect(rows.map((row) => [row.claimed_by, row.attempts])).toEqual([[null, 0], [null, 0], [null, 0]]);
    const marker = await notificationsDelivered(listener, ctx.handle.pool, EXECUTIONS_CHANNEL);
    expect(notifications).toEqual([String(answer.body.data.orderId), marker]);
  });
});

describe('in-process hand-off with the real dispatcher', () => {
  let ctx: TestContext;
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    ctx = await createTestContext();
    sandbox = await startSandbox({ randomWalk: false });
    sandbox.control.setPrice('BTCUSDT', 60000);
  });
  afterAll(async () => {
    await Promise.race([sandbox.close(), new Promise((resolve) => setTimeout(resolve, 2_000))]);
    await ctx.close();
  });

  async function placedOnceByTheReceivingProcess(alertId: string, contextsInStatement: number): Promise<void> {
    const customers = [];
    for (let i = 0; i < 4; i += 1) customers.push(await tradingCustomer(ctx, sandbox, { exchange: i % 2 === 0 ? 'bybit' : 'bitget', group: CustomerGroup.Gold }));
    // A long safety poll: only the hand-off (or a NOTIFY, which it does not send) can start these executions quickly.
    const dispatcher = await startEngine(ctx, sandbox, { safetyPollMs: 60_000, handoffContexts: contextsInStatement });
    try {
      const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups });
      const answer = await alert(ctx, strategy.url, alertId);
      const orderId = answer.body.data.orderId as number;
      const claimedAtAnswer = await executionsOf(ctx, orderId);
      expect(claimedAtAnswer.every((row) => row.claimed_by === dispatcher.worker || row.state !== 'pending')).toBe(true);
      // Within the 60 s safety poll: only the hand-off could have started them (the claims at the answer show it did).
      await waitFor('every entry open', async () => (await executionsOf(ctx, orderId)).every((row) => row.state === 'open'), 30_000);
      for (const customer of customers) {
        const entries = sandbox.control.account(customer.sandbox!.uid).orders.filter((order) => order.clientOrderId === `ct${orderId}-${customer.customerId}-e`);
        expect(entries).toHaveLength(1);
      }
    } finally {
      await dispatcher.stop();
    }
    const claimed = await ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from executions where claimed_by is not null`);
    expect(claimed.rows[0]!.n).toBe(0);
    expect(ctx.deps.intake.handoff.runner()).toBeUndefined();
  }

  it('the dispatcher of the receiving process places every entry under its own claim, once; a stopped dispatcher leaves nothing claimed', async () => {
    await placedOnceByTheReceivingProcess('real', 500);
  });

  it('the same when the statement reads one context and the dispatcher reads the others after the commit', async () => {
    await placedOnceByTheReceivingProcess('real-later', 1);
  });

  it('a stopped dispatcher gives executions handed over to it back to the queue at once, whether their contexts were read or not', async () => {
    for (let i = 0; i < 3; i += 1) await tradingCustomer(ctx, sandbox, { exchange: 'bybit', group: CustomerGroup.Gold });
    const dispatcher = await startEngine(ctx, sandbox, { safetyPollMs: 60_000 });
    await dispatcher.stop();
    const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups });
    const answer = await alert(ctx, strategy.url, 'handed-to-stopped');
    const orderId = answer.body.data.orderId as number;
    // As if the alert's statement had claimed them for this dispatcher just before it stopped.
    await ctx.deps.db.execute(sql`update executions set claimed_by = ${dispatcher.worker}, claim_expires_at = now() + interval '1 minute' where order_id = ${orderId}`);
    const [read, ...later] = (await executionsOf(ctx, orderId)).map((row) => row.id);
    const readContexts = await loadContexts(ctx.deps.db, dispatcher.worker, [read!]);
    dispatcher.adopt(readContexts, later);
    // Given back by the stop, not by the claims' expiry (a minute from now).
    await waitFor('every claim given back', async () => (await executionsOf(ctx, orderId)).every((row) => row.claimed_by === null), 30_000);
    const rows = await executionsOf(ctx, orderId);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((row) => row.state === 'pending')).toBe(true);
  });
});
