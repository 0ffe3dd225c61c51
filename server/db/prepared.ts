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

/**
 * Statements whose text depends on a shape (e.g. which filters a list request sets and its sort),
 * each shape prepared once per database handle as `${prefix}_${n}`: PostgreSQL parses it once per
 * connection and reuses its plan, and the query builder does not run its SQL writer per request.
 * At most `maxShapes` shapes are named (each costs every connection a prepared statement); a rarer
 * one, and any inside a transaction, runs as built.
 */
export function preparedPerShape<Built extends { prepare(name: string): Prepared }, Prepared>(prefix: string, maxShapes = 100) {
  const names = new Map<string, string>();
  const statementsOf = preparedPerHandle(() => new Map<string, Prepared>());
  return (db: DbOrTx, shape: string, built: Built): Built | Prepared => {
    let name = names.get(shape);
    if (name === undefined && names.size < maxShapes) {
      name = `${prefix}_${names.size}`;
      names.set(shape, name);
    }
    if (name === undefined || db instanceof PgTransaction) return built;
    const statements = statementsOf(db);
    let statement = statements.get(shape);
    if (!statement) {
      statement = built.prepare(name);
      statements.set(shape, statement);
    }
    return statement;
  };
}
