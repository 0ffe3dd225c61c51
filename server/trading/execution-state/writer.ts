import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/** What a transition needs: the database (or the caller's transaction) and the claim holder's id. */
export interface StateWriter {
  db: DbOrTx;
  /** Only the process holding the claim may change a claimed execution. */
  worker: string;
  /**
   * When the transition happened. The engine leaves it unset (the database's now()); the demo seeding
   * (server/demo/) sets it to write a backdated trading history through these same transitions.
   */
  at?: Date | undefined;
}

/** The instant a transition writes: `at` when given, else the database's now(). */
export function instantOf(at: Date | undefined): SQL {
  return at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
}
