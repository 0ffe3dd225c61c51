import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, Exchange } from '../../contract/enums';
import { customers } from '../../server/db/schema/index';
import { NOTIFICATION_CHANNEL } from '../../server/lib/notify';
import { runWalletSync, startWalletSyncJob, WALLET_SYNC_LOCK } from '../../server/modules/account-health/job';
import { encryptCredentials } from '../../server/lib/credentials';
import { startSandbox, type RunningSandbox } from '../../server/sandbox/index';
import { useExchangeAccess } from '../../server/trading/exchanges/for-deps';
import { guardedFetch } from '../helpers/fetch-guard';
import { createPerson, personWithToken } from '../helpers/fixtures';
import { notificationsDelivered } from '../helpers/notifications';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { waitFor } from '../engine/fixtures';

let ctx: TestContext;
let sandbox: RunningSandbox;
let adminToken: string;
let employeeToken: string;
const ids: Record<string, number> = {};

/** A customer connected to a sandbox account (or with the given broken secret). */
async function connectedCustomer(name: string, exchange: 'bybit' | 'bitget', input: Parameters<RunningSandbox['control']['createAccount']>[0], brokenSecret = false): Promise<number> {
  const created = sandbox.control.createAccount(input);
  const person = await createPerson(ctx, AccountType.Customer, { firstName: name, lastName: 'Health' });
  const [row] = await ctx.deps.db.select({ id: customers.id }).from(customers).where(eq(customers.accountId, person.accountId));
  await ctx.deps.db
    .update(customers)
    .set({
      platformType: exchange === 'bybit' ? Exchange.Bybit : Exchange.Bitget,
      ...encryptCredentials(ctx.deps.secrets, person.accountId, { apiKey: created.apiKey, apiSecret: brokenSecret ? `${created.secret}x` : created.secret, passphrase: created.passphrase || null }),
    })
    .where(eq(customers.id, row!.id));
  return row!.id;
}

beforeAll(async () => {
  sandbox = await startSandbox({ randomWalk: false });
  ctx = await createTestContext();
  useExchangeAccess(ctx.deps, { sandboxUrl: sandbox.url, fetchImplementation: guardedFetch });
  adminToken = (await personWithToken(ctx, AccountType.Admin)).token;
  employeeToken = (await personWithToken(ctx, AccountType.Employee)).token;
  ids.good = await connectedCustomer('Goodkey', 'bybit', { exchange: 'bybit', balance: 1234.5 });
  ids.withdraw = await connectedCustomer('Withdrawer', 'bitget', { exchange: 'bitget', balance: 700, permissions: { withdraw: true }, ips: ['127.0.0.1'] });
  ids.badSecret = await connectedCustomer('Badsecret', 'bitget', { exchange: 'bitget', balance: 50 }, true);
  ids.otherIp = await connectedCustomer('Otherip', 'bybit', { exchange: 'bybit', balance: 50, ips: ['10.9.9.9'] });
  // A customer without a key is not part of the health check.
  await createPerson(ctx, AccountType.Customer, { firstName: 'Nokey' });
});
afterAll(async () => {
  await ctx?.close();
  await sandbox?.close();
});

const search = (body: Record<string, unknown>, token = employeeToken) => ctx.api('POST', '/api/health/search', { token, body });

describe('account health and wallet sync', () => {
  it('lists connected customers as not checked before the first sync', async () => {
    const answer = await search({});
    expect(answer.status).toBe(200);
    expect(answer.body.data.paging.totalCount).toBe(4);
    expect(answer.body.data.data.every((row: { keyValid: unknown; problem: boolean }) => row.keyValid === null && row.problem)).toBe(true);
  });

  it('only admins may sync; a sync updates wallets and health and flags the withdrawing key to staff', async () => {
    expect((await ctx.api('POST', '/api/health/sync', { token: employeeToken, body: {} })).status).toBe(403);
    const listener = await ctx.deps.pool.connect();
    const notes: string[] = [];
    listener.on('notification', (message) => notes.push(message.payload ?? ''));
    await listener.query(`listen ${NOTIFICATION_CHANNEL}`);
    try {
      const answer = await ctx.api('POST', '/api/health/sync', { token: adminToken, body: {} });
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual({ checked: 4, walletsUpdated: 2, failed: 2, withdrawalEnabled: 1 });
      // The sync committed its notification before answering: it has arrived once the test's marker has.
      const marker = await notificationsDelivered(listener, ctx.deps.pool, NOTIFICATION_CHANNEL);
      notes.splice(notes.indexOf(marker), 1);
    } finally {
      await listener.query(`unlisten ${NOTIFICATION_CHANNEL}`);
      listener.release();
    }
    expect(notes).toHaveLength(1);
    expect(JSON.parse(notes[0]!).message).toBe(
      `Security: the Bitget API key of Withdrawer Health (customer ${ids.withdraw}) can withdraw funds. Ask the customer to remove the withdrawal permission or reconnect through quick connect.`,
    );

    const rows = (await search({ pageSize: 10 })).body.data.data as Array<Record<string, unknown>>;
    const byId = Object.fromEntries(rows.map((row) => [row.customerId as number, row]));
    expect(byId[ids.good!]).toMatchObject({ platformType: Exchange.Bybit, currentWalletAmount: 1234.5, keyValid: true, canTrade: true, canWithdraw: false, ipBound: false, positionMode: 'oneway', lastError: null, problem: false });
    expect(byId[ids.good!]!.lastSyncAt).toBe(ctx.clock.now().toISOString());
    expect(byId[ids.withdraw!]).toMatchObject({ currentWalletAmount: 700, keyValid: true, canWithdraw: true, ipBound: true, problem: true });
    expect(byId[ids.badSecret!]).toMatchObject({ currentWalletAmount: 0, keyValid: false, canTrade: false, problem: true, lastSyncAt: null });
    expect(byId[ids.badSecret!]!.lastError).toBe('Bitget rejected the request signature (the API secret does not match the key) (40009 "sign signature error"): ask the customer to reconnect their exchange');
    expect(byId[ids.otherIp!]).toMatchObject({ keyValid: false, ipBound: true, problem: true });
    expect(byId[ids.otherIp!]!.lastError).toContain("Bybit refused our server's IP address for this API key (10010");
    expect(rows.map((row) => row.apiKey)).toEqual(rows.map(() => expect.stringMatching(/^\*\*\*\*.{4}$/)));
    // Problems come first.
    expect(rows.at(-1)!.customerId).toBe(ids.good);
  });

  it('filters by problem, withdrawal, invalid key, exchange and name, with paging', async () => {
    const idsOf = async (body: Record<string, unknown>) => ((await search(body)).body.data.data as Array<{ customerId: number }>).map((row) => row.customerId).sort();
    expect(await idsOf({ problemsOnly: true })).toEqual([ids.withdraw, ids.badSecret, ids.otherIp].sort());
    expect(await idsOf({ withdrawalEnabled: true })).toEqual([ids.withdraw]);
    expect(await idsOf({ keyInvalid: true })).toEqual([ids.badSecret, ids.otherIp].sort());
    expect(await idsOf({ platformType: Exchange.Bybit })).toEqual([ids.good, ids.otherIp].sort());
    expect(await idsOf({ name: 'goodKEY' })).toEqual([ids.good]);
    const page = await search({ pageSize: 3, pageIndex: 1 });
    expect(page.body.data.paging).toEqual({ totalCount: 4, pageIndex: 1, pageSize: 3 });
    expect(page.body.data.data).toHaveLength(1);
    const bad = await search({ platformType: Exchange.Binance });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toContain('platformType must be 1 (Bitget) or 2 (Bybit)');
  });

  it('syncs one customer on demand and reports the withdrawing key only once', async () => {
    sandbox.control.fund(sandbox.control.accounts().find((a) => a.balances.USDT === 1234.5)!.uid, 100);
    const one = await ctx.api('POST', '/api/health/sync', { token: adminToken, body: { customerId: ids.good } });
    expect(one.body.data).toEqual({ checked: 1, walletsUpdated: 1, failed: 0, withdrawalEnabled: 0 });
    const [row] = await ctx.deps.db.select({ wallet: customers.currentWalletAmount }).from(customers).where(eq(customers.id, ids.good!));
    expect(Number(row!.wallet)).toBe(1334.5);
    // The same balance again writes no new row version (lists keep the row they read).
    const versionOf = async () => (await ctx.deps.db.execute<{ xmin: string }>(sql`select xmin::text as xmin from customers where id = ${ids.good!}`)).rows[0]!.xmin;
    const before = await versionOf();
    const again = await ctx.api('POST', '/api/health/sync', { token: adminToken, body: { customerId: ids.good } });
    expect(again.body.data).toEqual({ checked: 1, walletsUpdated: 1, failed: 0, withdrawalEnabled: 0 });
    expect(await versionOf()).toBe(before);
    expect((await ctx.api('POST', '/api/health/sync', { token: adminToken, body: { customerId: 999999 } })).status).toBe(404);
  });

  it('one sync of everyone at a time, across processes (advisory lock)', async () => {
    const holder = await ctx.deps.pool.connect();
    try {
      await holder.query('select pg_advisory_lock($1)', [WALLET_SYNC_LOCK]);
      expect(await runWalletSync(ctx.deps)).toBeNull();
      const busy = await ctx.api('POST', '/api/health/sync', { token: adminToken, body: {} });
      expect(busy.status).toBe(409);
      await holder.query('select pg_advisory_unlock($1)', [WALLET_SYNC_LOCK]);
    } finally {
      holder.release();
    }
    expect(await runWalletSync(ctx.deps)).toMatchObject({ checked: 4 });
  });

  it('a run whose lock connection is cut (a database restart) finishes, and the process goes on', async () => {
    // Every exchange request 1.5 s late, so the run is still going when its lock's backend is ended.
    sandbox.control.setFaults([{ latencyMs: 1_500 }]);
    try {
      const run = runWalletSync(ctx.deps);
      const lockHolder = async () => {
        const held = await ctx.deps.db.execute<{ pid: number }>(
          sql`select pid from pg_locks where locktype = 'advisory' and objid = ${WALLET_SYNC_LOCK} and granted`,
        );
        return held.rows[0]?.pid;
      };
      let pid: number | undefined;
      while (pid === undefined) pid = await lockHolder();
      await ctx.deps.db.execute(sql`select pg_terminate_backend(${pid})`);
      // Before: the idle lock connection's error went unhandled and ended the test process.
      expect(await run).toMatchObject({ checked: 4 });
      expect(await lockHolder()).toBeUndefined();
    } finally {
      sandbox.control.setFaults([]);
    }
    expect(await runWalletSync(ctx.deps)).toMatchObject({ checked: 4 });
  });

  // Last: it connects more customers than the tests above count.
  it("stopping the periodic sync ends its run after the customers in flight, not after everyone's", async () => {
    const fresh: number[] = [];
    for (let i = 0; i < 36; i += 1) fresh.push(await connectedCustomer(`Many${i}`, 'bybit', { exchange: 'bybit', balance: 10 }));
    // Every exchange request 2 s late: the 16 customers synced at once take several seconds each.
    sandbox.control.setFaults([{ latencyMs: 2_000 }]);
    const answered = requestsAnswered();
    const job = startWalletSyncJob(ctx.deps, 50);
    try {
      // Stopped once a customer is in flight (the exchange has answered one of its requests), not merely
      // once the run holds its lock: stopped before it reached anyone, the run would rightly reach no one.
      await waitFor('a request of the run answered', async () => requestsAnswered() > answered, 30_000);
      await job.stop();
    } finally {
      sandbox.control.setFaults([]);
    }
    // Of the new customers (never checked before), those this run reached: some, not all.
    const rows = await ctx.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from customer_health where customer_id = any(${`{${fresh.join(',')}}`}::int[])`);
    expect(rows.rows[0]!.n).toBeGreaterThan(0);
    expect(rows.rows[0]!.n).toBeLessThan(fresh.length);
  });
});

/** Requests the sandbox has answered for any account so far (counted once a request has passed its faults' latency). */
function requestsAnswered(): number {
  return Object.values(sandbox.control.counters().requestsByAccount).reduce((sum, n) => sum + n, 0);
}
