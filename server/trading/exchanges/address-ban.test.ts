import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index';
import { startExactSandbox } from '../../sandbox/test-support';
import { AddressBans, type AddressBan } from './address-ban';
import { DEFAULT_CEILINGS, ExchangeRateLimiter, WINDOW_SLACK_MS } from './rate-limiter';
import { adapterHarness, failureOf, sandboxAccount, type AdapterHarness } from './test-support';

/** Long enough for the steps taken during the ban (a refused entry, a Bitget read) on a loaded machine; the test waits it out once. */
const BAN_MS = 4_000;

let sandbox: RunningSandbox;
let h: AdapterHarness;
const heard: AddressBan[] = [];

beforeAll(async () => {
  sandbox = await startExactSandbox({ randomWalk: false });
  sandbox.control.setPrice('BTCUSDT', 60_000);
  const limiter = new ExchangeRateLimiter(DEFAULT_CEILINGS, WINDOW_SLACK_MS, new AddressBans({ bybit: BAN_MS, bitget: BAN_MS }));
  limiter.onAddressBan((ban) => heard.push(ban));
  h = adapterHarness(sandbox, limiter);
  await h.adapters.bybit.loadMarkets();
  await h.adapters.bitget.loadMarkets();
});
afterAll(async () => sandbox?.close());

describe('a Bybit 403 bans the address: nothing is sent to Bybit from it until the ban is over (LIVE-FIDELITY B8)', () => {
  it('pauses every Bybit request, refuses entries whose deadline ends first, and is heard of once', async () => {
    const creds = sandboxAccount(sandbox, 'bybit');
    const other = sandboxAccount(sandbox, 'bybit');
    const bitgetCreds = sandboxAccount(sandbox, 'bitget');
    // Bybit answers HTTP 403 once the address passes its ceiling (docs/v5/rate-limit/rate-limit.mdx).
    sandbox.control.setFaults([{ exchange: 'bybit', route: '/v5/account/wallet-balance', errorShare: 1, errorStatus: 403, remaining: 1 }]);
    const refused = await failureOf(h.adapters.bybit.fetchBalance(creds));
    expect(refused).toMatchObject({ code: 'rate_limit', retryable: true });
    const bannedAt = Date.now();
    expect(heard).toEqual([expect.objectContaining({ exchange: 'bybit', egress: 'default', reason: 'HTTP 403' })]);
    expect(heard[0]!.until - heard[0]!.since).toBe(BAN_MS);

    const sent = h.recorder.since();
    // A request that can wait, waits.
    const balance = h.adapters.bybit.fetchBalance(other).then((value) => ({ value, at: Date.now() }));
    // An entry whose deadline ends inside the ban is refused at once and never sent.
    const late = await failureOf(
      h.adapters.bybit.placeEntry(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId: 'ct80-1-e', positionMode: 'oneway', deadlineAt: Date.now() + 500 }),
    );
    expect(late).toMatchObject({ code: 'deadline', retryable: false });
    expect(late.staffMessage).toMatch(/^Bybit has banned requests from this server's address until \d{4}-\d\d-\d\dT[\d:.]+Z \(HTTP 403 after the per-address ceiling\)/);
    // Bitget is another exchange: its requests go on.
    expect(await h.adapters.bitget.fetchBalance(bitgetCreds)).toMatchObject({ total: 10_000 });

    const waited = await balance;
    expect(waited.value).toMatchObject({ total: 10_000 });
    expect(waited.at - bannedAt).toBeGreaterThanOrEqual(BAN_MS - 50);
    const ban = heard[0]!;
    const duringBan = sent().filter((r) => r.sentAt < ban.until);
    expect(duringBan.map((r) => r.path)).toEqual(['/api/v2/mix/account/accounts']);
    expect(sent().filter((r) => r.path.startsWith('/v5/')).map((r) => r.path)).toEqual(['/v5/account/wallet-balance']);
    expect(sandbox.control.account(creds.uid).orders).toEqual([]);
    // An entry with a deadline after the ban (or none) goes once the ban is over.
    const placed = await h.adapters.bybit.placeEntry(creds, { symbol: 'BTCUSDT', side: 'long', quantity: 0.01, clientOrderId: 'ct80-2-e', positionMode: 'oneway', deadlineAt: Date.now() + 5_000 });
    expect(placed).toMatchObject({ clientOrderId: 'ct80-2-e', exchangeOrderId: expect.any(String) });
    expect(heard).toHaveLength(1);
  });

  it('an entry whose deadline passes while it waits for the rate limits is not sent late', async () => {
    const slow = { ...DEFAULT_CEILINGS.bybit, perAccountOrders: { limit: 1, windowMs: 800 } };
    const paced = adapterHarness(sandbox, new ExchangeRateLimiter({ ...DEFAULT_CEILINGS, bybit: slow }));
    await paced.adapters.bybit.loadMarkets();
    const creds = sandboxAccount(sandbox, 'bybit');
    const entry = (id: string, deadlineAt: number) => ({ symbol: 'BTCUSDT', side: 'long' as const, quantity: 0.01, clientOrderId: id, positionMode: 'oneway' as const, deadlineAt });
    const first = paced.adapters.bybit.placeEntry(creds, entry('ct81-1-e', Date.now() + 5_000));
    const late = await failureOf(paced.adapters.bybit.placeEntry(creds, entry('ct81-2-e', Date.now() + 200)));
    expect(late).toMatchObject({ code: 'deadline', retryable: false });
    expect(late.staffMessage).toBe("Bybit was not sent this request: its deadline passed while it waited for the exchange's rate limits or the end of a ban");
    await first;
    expect(sandbox.control.account(creds.uid).orders.map((o) => o.clientOrderId)).toEqual(['ct81-1-e']);
  });

  it('after a ban one request goes first; the others follow once it is answered, and a 403 to it holds them for another ban', async () => {
    const bans = new AddressBans({ bybit: 100, bitget: 100 });
    expect(bans.report('bybit', 'probed', 'HTTP 403')).toBe(true);
    let order: string[] = [];
    const first = bans.sendable('bybit', 'probed').then((probe) => (order.push('first'), probe));
    const second = bans.sendable('bybit', 'probed').then((probe) => (order.push('second'), probe));
    const probe = await first;
    expect(probe).toBeTypeOf('function');
    // The second waits for the first one's answer: here, another 403.
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['first']);
    expect(bans.report('bybit', 'probed', 'HTTP 403')).toBe(true);
    probe!();
    // After that ban, the second is the one to go first.
    expect(await second).toBeTypeOf('function');
    expect(order).toEqual(['first', 'second']);
    // Answered without a ban: the others go at once, none of them a probe.
    order = [];
    const third = bans.sendable('bybit', 'probed').then((p) => (order.push('third'), p));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    (await second)!();
    expect(await third).toBeUndefined();
    expect(await bans.sendable('bybit', 'probed')).toBeUndefined();
  });

  it('a second ban later is heard of again; a 403 during a ban only prolongs it', async () => {
    const bans = new AddressBans({ bybit: 200, bitget: 200 });
    const events: AddressBan[] = [];
    bans.onBan((ban) => events.push(ban));
    expect(bans.report('bybit', 'a', 'HTTP 403')).toBe(true);
    expect(bans.report('bybit', 'a', 'HTTP 403')).toBe(false);
    expect(bans.report('bybit', 'b', 'HTTP 403')).toBe(true);
    expect(events.map((ban) => ban.egress)).toEqual(['a', 'b']);
    await bans.clear('bybit', 'a');
    expect(bans.current('bybit', 'a')).toBeUndefined();
    expect(bans.report('bybit', 'a', 'HTTP 403')).toBe(true);
    expect(events.map((ban) => ban.egress)).toEqual(['a', 'b', 'a']);
    await bans.clear('bybit', 'a');
    await bans.clear('bybit', 'b');
  });
});
