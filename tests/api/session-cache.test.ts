import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_DAYS } from '../../contract/constants';
import { AccountStatus, AccountType, CustomerGroup } from '../../contract/enums';
import { server as messages } from '../../contract/messages';
import { DAY_MS } from '../../server/lib/clock';
import { SessionCache } from '../../server/modules/auth/session-cache';
import { resolveSession } from '../../server/modules/auth/sessions';
import { loginAs, personWithToken } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

/** Two app instances on one database, as two API processes of the scale-out would be. */
let first: TestContext;
let second: TestContext;
let admin: string;

beforeAll(async () => {
  first = await createTestContext();
  second = await createTestContext({ database: first.database });
  admin = (await personWithToken(first, AccountType.Admin)).token;
  await vi.waitFor(() => expect(first.deps.sessionCache.listening && second.deps.sessionCache.listening).toBe(true), { timeout: 30_000 });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

const ownAccount = (ctx: TestContext, token: string) => ctx.api('GET', '/api/account', { token });

/** A signed-in agent whose token both instances have resolved and cached. */
async function cachedOnBoth() {
  const person = await personWithToken(first, AccountType.Agent);
  for (const ctx of [first, second]) {
    const before = ctx.deps.sessionCache.size;
    expect((await ownAccount(ctx, person.token)).status).toBe(200);
    expect(ctx.deps.sessionCache.size).toBe(before + 1);
    // Served from the cache now: the same answer.
    expect((await ownAccount(ctx, person.token)).body.data.id).toBe(person.accountId);
  }
  return person;
}

/**
 * The writing process has waited for its own notice: its very next request is refused. Another
 * process is refused once the notice reaches it (no ordering across processes is promised), which
 * is the notification's delivery time, not a cache lifetime: `settle()` resolves once that process's
 * LISTEN connection has passed every commit made before it (notifications arrive in commit order).
 */
async function expectRefusedOnBoth(writer: TestContext, token: string) {
  const refused = async (ctx: TestContext) => {
    const answer = await ownAccount(ctx, token);
    expect(answer.status).toBe(401);
    expect(answer.body.error?.message).toBe(messages.sessionExpired);
  };
  await refused(writer);
  const other = writer === first ? second : first;
  await other.deps.sessionCache.settle();
  await refused(other);
}

/** Both processes' LISTEN connections have passed every commit made so far. */
async function noticesDelivered(): Promise<void> {
  await Promise.all([first.deps.sessionCache.settle(), second.deps.sessionCache.settle()]);
}

describe('cached sessions end on the writer\'s very next request, and in the other instance once its notice arrives', () => {
  it('after log-out', async () => {
    const person = await cachedOnBoth();
    expect((await first.api('POST', '/api/security/logout', { token: person.token })).status).toBe(200);
    await expectRefusedOnBoth(first, person.token);
  });

  it('after the account is blocked', async () => {
    const person = await cachedOnBoth();
    expect((await first.api('PATCH', `/api/security/status/${person.accountId}`, { token: admin, body: { status: AccountStatus.Blocked } })).status).toBe(200);
    await expectRefusedOnBoth(first, person.token);
  });

  it('after the account is deleted', async () => {
    const person = await cachedOnBoth();
    expect((await second.api('PATCH', `/api/security/status/${person.accountId}`, { token: admin, body: { status: 0 } })).status).toBe(200);
    await expectRefusedOnBoth(second, person.token);
  });

  it('after an admin sets the password', async () => {
    const person = await cachedOnBoth();
    expect((await first.api('POST', `/api/security/password/reset/${person.accountId}`, { token: admin, body: { password: 'another horse battery' } })).status).toBe(200);
    await expectRefusedOnBoth(first, person.token);
    const fresh = await loginAs(first, { email: person.email, password: 'another horse battery' });
    expect((await ownAccount(second, fresh)).status).toBe(200);
  });

  it('after a write outside the API (the trigger tells every instance)', async () => {
    const person = await cachedOnBoth();
    await first.handle.pool.query('update sessions set revoked_at = now() where account_id = $1', [person.accountId]);
    await noticesDelivered();
    for (const ctx of [first, second]) expect((await ownAccount(ctx, person.token)).status).toBe(401);
  });

  it('a status change that keeps sessions is seen by the writer at once (Pending -> Active)', async () => {
    const person = await personWithToken(first, AccountType.Customer, { status: AccountStatus.Pending, group: CustomerGroup.Gold });
    for (const ctx of [first, second]) expect(await resolveSession(ctx.deps, person.token)).toMatchObject({ status: AccountStatus.Pending });
    expect((await first.api('PATCH', `/api/security/status/${person.accountId}`, { token: admin, body: { status: AccountStatus.Active } })).status).toBe(200);
    expect(await resolveSession(first.deps, person.token)).toMatchObject({ status: AccountStatus.Active });
    await second.deps.sessionCache.settle();
    expect(await resolveSession(second.deps, person.token)).toMatchObject({ status: AccountStatus.Active });
  });

  it('an account made an agent after signing in has its own list on the next request', async () => {
    const person = await personWithToken(first, AccountType.Agent);
    const own = () => second.api('POST', '/api/agent/customers/own/filter', { token: person.token, body: {} });
    expect((await own()).status).toBe(200);
    // Step two of the add-agent form not done yet: an agent account without its agent row.
    await first.handle.pool.query('delete from agents where account_id = $1', [person.accountId]);
    await second.deps.sessionCache.settle();
    expect((await own()).status).toBe(404);
    const made = await first.api('POST', '/api/agent', { token: admin, body: { accountId: person.accountId } });
    expect(made.status).toBe(200);
    // The process that made the agent has waited for its own notice: its very next request sees it.
    const here = await first.api('POST', '/api/agent/customers/own/filter', { token: person.token, body: {} });
    expect(here.status).toBe(200);
    expect(here.body.data.paging.totalCount).toBe(0);
    // Another process sees it once the notice reaches it (no ordering across processes is promised).
    await second.deps.sessionCache.settle();
    const there = await own();
    expect(there.status).toBe(200);
    expect(there.body.data.paging.totalCount).toBe(0);
  });

  it('after the session expires, though cached', async () => {
    const person = await cachedOnBoth();
    first.clock.advance(SESSION_DAYS * DAY_MS + 1);
    try {
      expect((await ownAccount(first, person.token)).status).toBe(401);
    } finally {
      first.clock.advance(-(SESSION_DAYS * DAY_MS + 1));
    }
  });
});

describe('a process that lost its LISTEN connection', () => {
  it('clears its cache and reads every session through until it listens again', async () => {
    const person = await cachedOnBoth();
    const cache = second.deps.sessionCache;
    const pid = cache.listenerPid;
    expect(pid).toBeTypeOf('number');
    await first.handle.pool.query('select pg_terminate_backend($1)', [pid]);
    await vi.waitFor(() => expect(cache.listening).toBe(false), { timeout: 30_000, interval: 5 });
    expect(cache.size).toBe(0);
    // Nothing is cached while deaf: a revocation no process hears about is still refused.
    expect((await ownAccount(second, person.token)).status).toBe(200);
    expect(cache.size).toBe(0);
    await first.handle.pool.query('update sessions set revoked_at = now() where account_id = $1', [person.accountId]);
    expect((await ownAccount(second, person.token)).status).toBe(401);
    await vi.waitFor(() => expect(cache.listening).toBe(true), { timeout: 30_000, interval: 20 });
    expect(cache.listenerPid).not.toBe(pid);
    const again = await personWithToken(first, AccountType.Agent);
    expect((await ownAccount(second, again.token)).status).toBe(200);
    expect(cache.size).toBe(1);
  });
});

describe('the cache bound', () => {
  it('never holds more than its bound, dropping the least recently used', async () => {
    const cache = new SessionCache(first.handle.pool, first.deps.log, 3);
    cache.start();
    try {
      await vi.waitFor(() => expect(cache.listening).toBe(true), { timeout: 30_000 });
      const deps = { db: first.deps.db, clock: first.clock, sessionCache: cache };
      const people = await Promise.all(Array.from({ length: 5 }, () => personWithToken(first, AccountType.Employee)));
      for (const person of people) {
        expect(await resolveSession(deps, person.token)).toMatchObject({ accountId: person.accountId });
        expect(cache.size).toBeLessThanOrEqual(3);
      }
      expect(cache.size).toBe(3);
      // Every token still resolves, cached or read through.
      for (const person of people) expect(await resolveSession(deps, person.token)).toMatchObject({ accountId: person.accountId, accountType: AccountType.Employee });
      expect(cache.size).toBe(3);
    } finally {
      await cache.stop();
    }
  });
});
