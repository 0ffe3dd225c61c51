import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index';

export type Schema = typeof schema;
export type Db = NodePgDatabase<Schema>;
/** A database handle or an open transaction: repositories accept either. */
export type DbTransaction = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | DbTransaction;

// PostgreSQL numeric and bigint come back as strings; int8 counts are parsed as numbers here
// because every count we read fits in 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

export interface DbHandle {
  db: Db;
  pool: pg.Pool;
  url: string;
  close(): Promise<void>;
}

export function createDb(url: string, options: { max?: number; applicationName?: string } = {}): DbHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'copytrade',
  });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema, casing: 'snake_case' });
  return {
    db,
    pool,
    url,
    close: () => pool.end(),
  };
}
