import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AmountType, CustomerGroup } from '../../contract/enums';
import type { Db } from '../../server/db/client';
import { strategies } from '../../server/db/schema/index';
import { sha256 } from '../../server/lib/tokens';
import { createWebhookStrategies } from '../../server/trading/webhook-strategies';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { insertStrategy } from './fixtures';

/** A database handle that fails on any use: a lookup answered through it was answered from memory. */
const noDatabase = new Proxy({}, {
  get() {
    throw new Error('the lookup read the database');
  },
}) as Db;

describe('webhook token -> strategy snapshot', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  /** A change is heard over LISTEN/NOTIFY: waited for with a generous deadline (vi.waitFor's default is 1 s). */
  const CHANGE_HEARD = { timeout: 30_000 };
  const newStrategy = () => insertStrategy(ctx, { tp: [{ target: 5, volume: 100 }], groups: [{ group: CustomerGroup.Gold, investType: AmountType.Quantity, amount: 0.01 }] });

  it('answers known tokens without a database read, reads unknown ones, and follows creation, rotation and deletion', async () => {
    const first = await newStrategy();
    const cache = createWebhookStrategies();
    await cache.start(ctx.deps.db, ctx.deps.pool, ctx.deps.log);
    try {
      await vi.waitFor(async () => expect((await cache.find(noDatabase, first.token))?.id).toBe(first.id), CHANGE_HEARD);
      // A token the snapshot does not hold is read from the database: it may belong to a strategy created a moment ago.
      await expect(cache.find(noDatabase, 'no-such-token')).rejects.toThrow('the lookup read the database');
      expect(await cache.find(ctx.deps.db, 'no-such-token')).toBeUndefined();

      // A strategy created after the snapshot is found at once (read through), then from the snapshot once the change is heard.
      const second = await newStrategy();
      expect((await cache.find(ctx.deps.db, second.token))?.id).toBe(second.id);
      await vi.waitFor(async () => expect((await cache.find(noDatabase, second.token))?.id).toBe(second.id), CHANGE_HEARD);

      const rotated = 'rotated-token-of-the-first-strategy';
      await ctx.deps.db.update(strategies).set({ webhookTokenHash: sha256(rotated) }).where(eq(strategies.id, first.id));
      await vi.waitFor(async () => expect(await cache.find(ctx.deps.db, first.token)).toBeUndefined(), CHANGE_HEARD);
      await vi.waitFor(async () => expect((await cache.find(noDatabase, rotated))?.id).toBe(first.id), CHANGE_HEARD);

      await ctx.deps.db.update(strategies).set({ deletedAt: new Date() }).where(eq(strategies.id, second.id));
      await vi.waitFor(async () => expect(await cache.find(ctx.deps.db, second.token)).toBeUndefined(), CHANGE_HEARD);
      await vi.waitFor(async () => expect(await cache.find(noDatabase, rotated)).toBeDefined(), CHANGE_HEARD);
      expect(await cache.find(ctx.deps.db, second.token)).toBeUndefined();
    } finally {
      await cache.stop();
    }
    // Not listening: nothing is answered from memory.
    await expect(cache.find(noDatabase, first.token)).rejects.toThrow('the lookup read the database');
  });

  it('while its connection is lost nothing is answered from memory, and a change made meanwhile is not missed after the reconnection', async () => {
    const strategy = await newStrategy();
    const cache = createWebhookStrategies();
    await cache.start(ctx.deps.db, ctx.deps.pool, ctx.deps.log);
    try {
      await vi.waitFor(async () => expect((await cache.find(noDatabase, strategy.token))?.id).toBe(strategy.id), CHANGE_HEARD);
      await ctx.deps.pool.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'webhook-strategies' and datname = current_database()`);
      await vi.waitFor(() => expect(cache.find(noDatabase, strategy.token)).rejects.toThrow('the lookup read the database'), CHANGE_HEARD);
      const rotated = 'rotated-while-the-listener-was-down';
      await ctx.deps.db.update(strategies).set({ webhookTokenHash: sha256(rotated) }).where(eq(strategies.id, strategy.id));
      // Reconnected (with backoff): the snapshot is read afresh, so the old token is gone and the new one answered from memory.
      await vi.waitFor(async () => expect((await cache.find(noDatabase, rotated))?.id).toBe(strategy.id), CHANGE_HEARD);
      expect(await cache.find(ctx.deps.db, strategy.token)).toBeUndefined();
    } finally {
      await cache.stop();
    }
  });
});
