import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AccountType } from '../../contract/enums';
import { customers } from '../../server/db/schema/index';
import { decryptCredentials, encryptCredentials } from '../../server/lib/credentials';
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
