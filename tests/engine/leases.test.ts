import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import { customers } from '../../server/db/schema/index';
import { encryptCredentials } from '../../server/lib/credentials';
import { ACCOUNT_SLICES, createAccountLeases, sliceOf, type AccountLeases } from '../../server/trading/accounts/leases';
import { shareOrderEntryWindows } from '../../server/trading/accounts/order-entry-share';
import { ACCOUNTS_CHANNEL, createWarmAccounts } from '../../server/trading/accounts/warm';
import type { OrderEntryWindow } from '../../server/trading/exchanges/types';
import { claimExecutions } from '../../server/trading/execution-state/queue';
import { createSettingsCache } from '../../server/trading/settings-cache';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { executionsOf, insertStrategy, tradingCustomer, waitFor, type TradingCustomer } from './fixtures';

/** Far longer than a test: a lease runs out only where the test ages it (`age`), never because the machine was slow. */
const LEASE_MS = 60_000;
const fail = (error: unknown) => {
  throw error;
};
const sorted = (leases: AccountLeases) => [...leases.owned()].sort((a, b) => a - b);

/** `ms` go by for a worker that renews nothing (a dead one): its heartbeat and its slices' leases are that much older. */
async function age(ctx: TestContext, worker: string, ms: number): Promise<void> {
  const by = sql`make_interval(secs => ${ms / 1000})`;
  await ctx.deps.db.execute(sql`update trading_workers set heartbeat_at = heartbeat_at - ${by} where worker = ${worker}`);
  await ctx.deps.db.execute(sql`update account_slices set lease_until = lease_until - ${by} where owner = ${worker}`);
}

describe('accounts shared out across workers by PostgreSQL leases', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('two workers split the slices; a worker that stops renewing (dies) has its slice taken over once its lease expires', async () => {
    // Rounds are run by hand here: a worker that is not called again is a dead one (it renews nothing).
    const a = createAccountLeases(ctx.deps.db, 'worker-a', LEASE_MS, fail);
    const b = createAccountLeases(ctx.deps.db, 'worker-b', LEASE_MS, fail);
    await a.rebalance();
    expect(a.owned().size).toBe(ACCOUNT_SLICES);
    await b.rebalance(); // b joins: nothing is free yet
    expect(b.owned().size).toBe(0);
    await a.rebalance(); // a sees two live workers and gives back what is above its share
    await b.rebalance();
    expect([a.owned().size, b.owned().size]).toEqual([ACCOUNT_SLICES / 2, ACCOUNT_SLICES / 2]);
    expect([...sorted(a), ...sorted(b)].sort((x, y) => x - y)).toEqual(Array.from({ length: ACCOUNT_SLICES }, (_, i) => i));

    // a dies. Until its lease runs out its slices stay its own; then b takes them all.
    await b.rebalance();
    expect(b.owned().size).toBe(ACCOUNT_SLICES / 2);
    await age(ctx, 'worker-a', LEASE_MS + 100);
    await b.rebalance();
    expect(b.owned().size).toBe(ACCOUNT_SLICES);
    await b.stop();
    const left = await ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from account_slices where owner is not null`);
    expect(left.rows[0]!.n).toBe(0);
    await a.stop(); // the dead worker's leftovers (its heartbeat row), so the next tests start clean

  });

  it("a worker claims only the executions of its own slices (and of slices no live worker holds)", async () => {
    const a = createAccountLeases(ctx.deps.db, 'worker-c', 60_000, fail);
    const b = createAccountLeases(ctx.deps.db, 'worker-d', 60_000, fail);
    await a.rebalance();
    await b.rebalance();
    await a.rebalance();
    await b.rebalance();
    // Customers on both sides of the split.
    const people: TradingCustomer[] = [];
    while (people.filter((p) => a.owns(p.customerId)).length < 2 || people.filter((p) => b.owns(p.customerId)).length < 2) {
      people.push(await tradingCustomer(ctx, null, { exchange: 'bybit', group: CustomerGroup.Vip }));
    }
    const strategy = await insertStrategy(ctx, { tp: [{ target: 3, volume: 100 }], groups: [{ group: CustomerGroup.Vip, investType: AmountType.Quantity, amount: 0.01 }] });
    const answer = await ctx.api('POST', strategy.url, { payload: '{"action":"open","alert_id":"lease"}', headers: { 'content-type': 'application/json' } });
    const orderId = answer.body.data.orderId as number;
    const claimedByB = await claimExecutions(ctx.deps.db, { worker: 'worker-d', limit: 100, leaseMs: 60_000, kind: 'work' });
    const rows = await executionsOf(ctx, orderId);
    const ofB = rows.filter((row) => b.owns(row.customer_id)).map((row) => row.id);
    expect(ofB.length).toBeGreaterThanOrEqual(2);
    expect(claimedByB.sort((x, y) => x - y)).toEqual(ofB);
    expect(rows.filter((row) => a.owns(row.customer_id)).every((row) => row.claimed_by === null)).toBe(true);
    expect(people.every((p) => a.owns(p.customerId) !== b.owns(p.customerId))).toBe(true);
    await a.stop();
    await b.stop();
  });

  it('the owner holds its accounts warm (decrypted keys, stored leverage and mode) and reloads one on the NOTIFY of a change', async () => {
    const customer = await tradingCustomer(ctx, null, { exchange: 'bitget', group: CustomerGroup.Gold });
    const leases = createAccountLeases(ctx.deps.db, 'worker-warm', 60_000, fail);
    const settings = createSettingsCache(ctx.deps.db);
    const warm = createWarmAccounts({ db: ctx.deps.db, secrets: ctx.deps.secrets, leases, settings, adapters: () => undefined, onError: fail, log: ctx.deps.log });
    await ctx.deps.db.execute(sql`insert into exchange_account_settings (customer_id, platform_type, symbol, leverage, position_mode) values (${customer.customerId}, 1, 'BTCUSDT', 7, 1)`);
    await leases.start();
    await warm.start(ctx.handle.pool);
    try {
      expect(sliceOf(customer.customerId)).toBeLessThan(ACCOUNT_SLICES);
      expect(warm.credentials(customer.customerId)).toEqual({ apiKey: `key${customer.customerId}`, secret: `secret${customer.customerId}`, passphrase: 'pass' });
      // The stored settings are known: ensuring them sends nothing (an adapter that fails on any call proves it).
      const refusing = new Proxy({}, { get: () => () => Promise.reject(new Error('no exchange call expected')) });
      await settings.ensure({ adapter: refusing as never, credentials: warm.credentials(customer.customerId)!, customerId: customer.customerId, platformType: 1, symbol: 'BTCUSDT', wanted: { leverage: 7, positionMode: 1 } });

      await ctx.deps.db.update(customers).set(encryptCredentials(ctx.deps.secrets, customer.accountId, { apiKey: 'rotated-key', apiSecret: 'rotated-secret', passphrase: 'p2' })).where(sql`${customers.id} = ${customer.customerId}`);
      // Only the change's NOTIFY reloads it (no periodic reload): the deadline only ends a failing wait.
      await waitFor('the new key', async () => warm.credentials(customer.customerId)?.apiKey === 'rotated-key', 30_000);
      expect(warm.credentials(customer.customerId)).toEqual({ apiKey: 'rotated-key', secret: 'rotated-secret', passphrase: 'p2' });
    } finally {
      await warm.stop();
      await leases.stop();
    }
  });
  it('a warm account changed while the listening connection was lost is reloaded once it reconnects', async () => {
    const customer = await tradingCustomer(ctx, null, { exchange: 'bybit', group: CustomerGroup.Gold });
    const leases = createAccountLeases(ctx.deps.db, 'worker-warm-lost', 60_000, fail);
    const warm = createWarmAccounts({ db: ctx.deps.db, secrets: ctx.deps.secrets, leases, settings: createSettingsCache(ctx.deps.db), adapters: () => undefined, onError: fail, log: ctx.deps.log });
    await leases.start();
    await warm.start(ctx.handle.pool);
    try {
      expect(warm.credentials(customer.customerId)?.apiKey).toBe(`key${customer.customerId}`);
      const listening = sql`select pid from pg_stat_activity where query = ${`listen ${ACCOUNTS_CHANNEL}`} and datname = current_database()`;
      const [listener] = (await ctx.deps.db.execute<{ pid: number }>(listening)).rows;
      await ctx.deps.db.execute(sql`select pg_terminate_backend(${listener!.pid})`);
      await ctx.deps.db.update(customers).set(encryptCredentials(ctx.deps.secrets, customer.accountId, { apiKey: 'rotated-unheard', apiSecret: 's', passphrase: 'p3' })).where(sql`${customers.id} = ${customer.customerId}`);
      await waitFor('the key changed while not listening', async () => warm.credentials(customer.customerId)?.apiKey === 'rotated-unheard', 30_000);
    } finally {
      await warm.stop();
      await leases.stop();
    }
  });
});

describe("an address's order-entry window split among the workers sending socket orders from it", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  /** A window that records the parts it is given. */
  const recordingWindow = (egress: string) => {
    const parts: number[] = [];
    const window: OrderEntryWindow = { egress, share: (part) => parts.push(part) };
    return { window, parts };
  };

  it('each worker counts the live ones on its own address; a newcomer that finds any sends over REST until they had a round to count it', async () => {
    let clock = 0;
    const now = () => clock;
    const SETTLE_MS = 1_000;
    const worker = (name: string, egress: string | undefined) => {
      const leases = createAccountLeases(ctx.deps.db, name, 60_000, fail, egress);
      const recorded = recordingWindow(egress ?? 'none');
      shareOrderEntryWindows(leases, egress ? [recorded.window] : [], SETTLE_MS, now);
      return { leases, parts: recorded.parts };
    };
    const a = worker('oe-a', 'egress-1');
    const restOnly = worker('oe-rest', undefined); // BYBIT_ORDER_ENTRY=rest: no part of any window
    const elsewhere = worker('oe-c', 'egress-2');
    await a.leases.rebalance();
    await restOnly.leases.rebalance();
    await elsewhere.leases.rebalance();
    expect(a.parts).toEqual([1]);
    expect(elsewhere.parts).toEqual([1]);

    // b joins on egress-1: its part stays 0 until a has had time for a round of its own.
    const b = worker('oe-b', 'egress-1');
    await b.leases.rebalance();
    expect(b.parts).toEqual([0]);
    await a.leases.rebalance();
    expect(a.parts).toEqual([1, 0.5]);
    clock = SETTLE_MS - 1;
    await b.leases.rebalance();
    expect(b.parts).toEqual([0, 0]);
    clock = SETTLE_MS;
    await b.leases.rebalance();
    expect(b.parts).toEqual([0, 0, 0.5]);
    await elsewhere.leases.rebalance();
    expect(elsewhere.parts).toEqual([1, 1]);

    // b stops: its heartbeat is gone, a takes the whole window at its next round.
    await b.leases.stop();
    await a.leases.rebalance();
    expect(a.parts).toEqual([1, 0.5, 1]);
    await Promise.all([a.leases.stop(), restOnly.leases.stop(), elsewhere.leases.stop()]);
  });
});
