import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccountType } from '../../contract/enums';
import { server } from '../../contract/messages';
import { customers } from '../../server/db/schema/index';
import { decryptCredentials, encryptCredentials } from '../../server/lib/credentials';
import { parseMasterKey } from '../../server/lib/secrets';
import { createPerson } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

/** Every row of every table of the database, as text: what a dump of it would contain. */
async function dumpDatabase(): Promise<string> {
  const tables = await ctx.handle.pool.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE'",
  );
  const parts: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = await ctx.handle.pool.query(`select t::text as row from "${table_name.replace(/"/g, '')}" t`).catch(async () =>
      ctx.handle.pool.query(`select t::text as row from drizzle."${table_name.replace(/"/g, '')}" t`),
    );
    for (const row of rows.rows) parts.push(String(row.row));
  }
  return parts.join('\n');
}

describe('exchange secrets at rest', () => {
  it('never appear in plaintext in the database', async () => {
    const customer = await createPerson(ctx, AccountType.Customer);
    const plain = { apiKey: 'PLAINKEY-7d1f0c2b9a', apiSecret: 'PLAINSECRET-94c1e8aa77f3', passphrase: 'PLAINPASS-31ab' };
    await ctx.deps.db.update(customers).set(encryptCredentials(ctx.deps.secrets, customer.accountId, plain)).where(eq(customers.id, customer.roleId));

    const dump = await dumpDatabase();
    expect(dump.length).toBeGreaterThan(1000);
    expect(dump).toContain('v1:');
    expect(dump).not.toContain(plain.apiKey);
    expect(dump).not.toContain(plain.apiSecret);
    expect(dump).not.toContain(plain.passphrase);
    // Only the last four characters of the key are kept in clear, for the masked display.
    expect(dump).toContain('c2b9a'.slice(-4));

    const [row] = await ctx.deps.db.select().from(customers).where(eq(customers.id, customer.roleId));
    expect(decryptCredentials(ctx.deps.secrets, row!)).toEqual({ apiKey: plain.apiKey, secret: plain.apiSecret, passphrase: plain.passphrase });
  });
});

describe('one-time codes at rest', () => {
  /** The unkeyed digest anyone holding the database could compute for every 6-digit code (what was stored until now). */
  const unkeyedDigest = (row: { account_id: number; purpose: string }, code: string) => createHash('sha256').update(`${row.account_id}:${row.purpose}:${code}`).digest('hex');
  /** The key only the master key gives (HKDF-SHA-256, as server/lib/secrets.ts derives it). */
  const hkdfKey = (masterKey: string) => Buffer.from(hkdfSync('sha256', parseMasterKey(masterKey), Buffer.alloc(0), 'copytrade mac: one-time-code', 32));

  it('cannot be recovered from a copy of the database: the stored value is no unkeyed digest of the mailed code', async () => {
    const staff = await createPerson(ctx, AccountType.Employee);
    const login = await ctx.api('POST', '/api/security/login', { body: { email: staff.email, password: staff.password } });
    expect(login.status).toBe(200);
    const mailed = ctx.lastCode(staff.email);
    const copy = await ctx.handle.pool.query<{ account_id: number; purpose: string; code_hash: string }>(
      'select account_id, purpose, code_hash from one_time_codes where account_id = $1 and consumed_at is null',
      [staff.accountId],
    );
    expect(copy.rows).toHaveLength(1);
    const row = copy.rows[0]!;
    expect(await dumpDatabase()).not.toContain(`:${mailed}`);
    // Trying all million codes finds one exactly when the right one's digest is the stored value
    // (any other match would be a SHA-256 collision): on the unkeyed scheme that search took 0.68 s.
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toBe(unkeyedDigest(row, mailed));
    expect(row.code_hash).toBe(createHmac('sha256', hkdfKey(ctx.config.masterKey!)).update(`${row.account_id}:${row.purpose}:${mailed}`).digest('hex'));
  });

  it('is useless to a server without the master key: another key on the same database refuses the right code', async () => {
    const staff = await createPerson(ctx, AccountType.Employee);
    expect((await ctx.api('POST', '/api/security/login', { body: { email: staff.email, password: staff.password } })).status).toBe(200);
    const code = ctx.lastCode(staff.email);
    const otherKey = await createTestContext({ database: ctx.database });
    try {
      const refused = await otherKey.api('POST', '/api/security/email/verify', { body: { code, accountId: staff.accountId } });
      expect([refused.status, refused.body.error?.message]).toEqual([400, server.invalidCode]);
    } finally {
      await otherKey.close();
    }
    const accepted = await ctx.api('POST', '/api/security/email/verify', { body: { code, accountId: staff.accountId } });
    expect(accepted.status).toBe(200);
  });
});
