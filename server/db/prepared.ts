import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';

/**
 * A named prepared statement built once per database handle: PostgreSQL parses and plans it once
 * per connection, and the query builder does not run again for every request. Inside a
 * transaction it is built for that transaction alone.
 */
export function preparedPerHandle<T>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const built = new WeakMap<object, T>();
  return (db) => {
    if (db instanceof PgTransaction) return build(db);
    let statement = built.get(db);
    if (!statement) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}
