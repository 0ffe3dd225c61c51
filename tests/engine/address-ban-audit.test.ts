import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationType } from '../../contract/enums';
import { NOTIFICATION_CHANNEL } from '../../server/lib/notify';
import { sharedExchangeLimiter } from '../../server/trading/exchanges/index';
import { auditAddressBans } from '../../server/trading/start';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

async function audits(): Promise<string[]> {
  const result = await ctx.deps.db.execute<{ message: string; order_id: number | null }>(sql`select message, order_id from entry_audits order by id`);
  return result.rows.map((row) => row.message);
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  // A generous deadline (30 s): a loaded machine may take a while; the condition, not the time, ends the wait.
  for (let i = 0; i < 600; i += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return read();
}

describe('an exchange banning our address is audited once and staff are told (LIVE-FIDELITY B8)', () => {
  it('one entry audit and one staff notification per ban; none once unsubscribed', async () => {
    const listener = await ctx.handle.pool.connect();
    const notified: Array<{ type: number; message: string }> = [];
    listener.on('notification', (note) => notified.push(JSON.parse(note.payload ?? '{}') as { type: number; message: string }));
    await listener.query(`listen ${NOTIFICATION_CHANNEL}`);
    try {
      const stop = auditAddressBans(ctx.deps);
      // Egress names no request of this process uses, so the ten-minute bans hold nothing up.
      expect(sharedExchangeLimiter.reportAddressBan('bybit', 'audit-test-a', 'HTTP 403')).toBe(true);
      expect(sharedExchangeLimiter.reportAddressBan('bybit', 'audit-test-a', 'HTTP 403')).toBe(false);
      const rows = await until(audits, (list) => list.length > 0);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatch(
        /^Bybit banned requests from this server's address \(audit-test-a\) until \d{4}-\d\d-\d\dT[\d:.]+Z \(HTTP 403 after its per-address ceiling\): nothing is sent to Bybit until then, entries whose deadline ends first are dropped, and open positions keep the stops already on Bybit$/,
      );
      await until(async () => notified.length, (n) => n > 0);
      expect(notified).toEqual([{ type: NotificationType.EntryFailure, message: rows[0] }]);
      stop();
      sharedExchangeLimiter.reportAddressBan('bybit', 'audit-test-b', 'HTTP 403');
      // A later ban heard while subscribed again is audited; the one heard meanwhile never is.
      const stopAgain = auditAddressBans(ctx.deps);
      sharedExchangeLimiter.reportAddressBan('bybit', 'audit-test-c', 'HTTP 403');
      stopAgain();
      const after = await until(audits, (list) => list.length > 1);
      expect(after).toHaveLength(2);
      expect(after[1]).toMatch(/\(audit-test-c\)/);
    } finally {
      listener.release();
    }
  });
});
