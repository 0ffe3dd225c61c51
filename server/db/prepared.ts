import type { SQL } from 'drizzle-orm';
import { PgDialect, PgTransaction } from 'drizzle-orm/pg-core';
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

/** Rows fetched by id, put back in the order of `ids`; an id with no row (deleted meanwhile) is left out. */
export function inOrderOf<Row, Out>(ids: number[], rows: Row[], idOf: (row: Row) => number, map: (row: Row) => Out): Out[] {
  const byId = new Map(rows.map((row) => [idOf(row), row] as const));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row === undefined ? [] : [map(row)];
  });
}

/**
 * A statement written in SQL (what the query builder cannot say, e.g. a data-modifying CTE) as a
 * named prepared statement: its text is built once, PostgreSQL parses and plans it once per
 * connection. Every varying value must be a `sql.placeholder`, so the text never changes.
 */
export function preparedSql<Row>(name: string, statement: SQL): (db: DbOrTx, values: Record<string, unknown>) => Promise<Row[]> {
  const query = new PgDialect().sqlToQuery(statement);
  return async (db, values) => {
    const result = (await db._.session.prepareQuery(query, undefined, name, false).execute(values)) as { rows: Row[] };
    return result.rows;
  };
}
