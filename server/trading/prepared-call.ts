import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { preparedSql } from '../db/prepared';

/**
 * A call of one of trading's SQL functions (migrations) as a named prepared statement,
 * `select fn($1, $2, ...)`, its arguments given by name: PostgreSQL parses it once per connection
 * and the function's own statements keep their plans for the connection's life.
 */
export function preparedFunctionCall<Answer, Name extends string>(statement: string, fn: string, args: readonly Name[]) {
  const call = preparedSql<{ answer: Answer }>(
    statement,
    sql`select ${sql.raw(fn)}(${sql.join(
      args.map((arg) => sql.placeholder(arg)),
      sql`, `,
    )}) as answer`,
  );
  return async (db: DbOrTx, values: Record<Name, unknown>): Promise<Answer> => {
    const [row] = await call(db, values);
    return row!.answer;
  };
}
