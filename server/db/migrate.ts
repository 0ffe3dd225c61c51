import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as drizzleMigrate } from 'drizzle-orm/node-postgres/migrator';
import { countries as countryList } from 'countries-list';
import { CustomerGroup, enumValues } from '../../contract/enums';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { Db } from './client';
import * as schema from './schema/index';
import { countries, webhookGroupSettings } from './schema/index';
import { applySqlFunctions } from './sql-functions';

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** Any constant: serialises migrations of processes starting together on one database. */
const MIGRATION_LOCK = 727_001;

/**
 * Applies pending migrations, then the SQL function files that changed (server/db/functions), then the
 * reference data every install needs. Safe to run concurrently.
 */
export async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    const db = drizzle(client, { schema, casing: 'snake_case' });
    await db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      await drizzleMigrate(db, { migrationsFolder });
      await applySqlFunctions(client);
      await seedReferenceData(db as unknown as Db);
    } finally {
      await db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  } finally {
    client.release();
  }
}

async function seedReferenceData(db: Db): Promise<void> {
  const rows = Object.entries(countryList)
    .map(([code, c]) => ({ name: c.name, countryCode: code, dialCode: `+${c.phone[0] ?? ''}` }))
    .sort((a, b) => a.name.localeCompare(b.name));
  await db
    .insert(countries)
    .values(rows)
    .onConflictDoUpdate({ target: countries.countryCode, set: { name: sql`excluded.name`, dialCode: sql`excluded.dial_code` } });
  await db
    .insert(webhookGroupSettings)
    .values(enumValues(CustomerGroup).map((group) => ({ group, isActive: false })))
    .onConflictDoNothing({ target: webhookGroupSettings.group });
}
