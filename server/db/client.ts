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
  /** Alert intake's own connections (INTAKE_CONNECTIONS, kept open): see `intakeDb` in TradingIntake. */
  intakeDb: Db;
  intakePool: pg.Pool;
  url: string;
  close(): Promise<void>;
}

/**
 * Connections kept for alert intake. A backend plans the intake's statements (and compiles its SQL
 * functions) on their first use: the first alert on a fresh connection took 10-18 ms more in the
 * PostgreSQL log. On the shared pool, which grows with background work and drops idle connections,
 * that was a first alert again and again; these few are never dropped and, taken last-in first-out,
 * an alert finds a backend that has served one before.
 */
export const INTAKE_CONNECTIONS = 8;

function poolOf(url: string, options: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, ...options });
  // An idle client losing its connection must not crash the process.
  pool.on('error', () => undefined);
  return pool;
}

export function createDb(url: string, options: { max?: number; applicationName?: string } = {}): DbHandle {
  const applicationName = options.applicationName ?? 'copytrade';
  const pool = poolOf(url, { max: options.max ?? 10, application_name: applicationName });
  const intakePool = poolOf(url, { max: INTAKE_CONNECTIONS, application_name: `${applicationName}-intake`, idleTimeoutMillis: 0, allowExitOnIdle: true });
  return {
    db: drizzle(pool, { schema, casing: 'snake_case' }),
    pool,
    intakeDb: drizzle(intakePool, { schema, casing: 'snake_case' }),
    intakePool,
    url,
    close: async () => {
      await Promise.all([pool.end(), intakePool.end()]);
    },
  };
}
