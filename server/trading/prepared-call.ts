import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { preparedSql } from '../db/prepared';

/**
 * A call of one of trading's SQL functions (migrations) as a named prepared statement,
 * `select fn($1, $2, ...)`, its arguments given by name: PostgreSQL parses it once per connection
 * and the function's own statements keep their plans for the connection's life.
 *
 * With `genericPlans`, the call first sets plan_cache_mode to force_generic_plan for the rest of its
 * transaction: the function's statements and the prepared statements after it in the transaction run
 * their cached generic plans instead of being planned again for every call's values, which PostgreSQL
 * otherwise keeps doing when a generic plan's estimate (unnest of an array of unknown length) looks
 * dearer than a custom one: about 2 ms per alert for the executions insert alone.
 */
export function preparedFunctionCall<Answer, Name extends string>(statement: string, fn: string, args: readonly Name[], options: { genericPlans?: boolean } = {}) {
  const generic = options.genericPlans ? sql`set_config('plan_cache_mode', 'force_generic_plan', true), ` : sql``;
  const call = preparedSql<{ answer: Answer }>(
    statement,
    sql`select ${generic}${sql.raw(fn)}(${sql.join(
      args.map((arg) => sql.placeholder(arg)),
      sql`, `,
    )}) as answer`,
  );
  return async (db: DbOrTx, values: Record<Name, unknown>): Promise<Answer> => {
    const [row] = await call(db, values);
    return row!.answer;
  };
}
