import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { listCacheOf, remember } from './list-cache';
import type { DbOrTx } from './client';

/**
 * Exact counts of insert-only lists (orders and the entry and exit audits: rows are added, never
 * deleted, and the columns their filters read never change) without counting them again.
 *
 * Every row carries the id of the transaction that inserted it (`inserted_by`, xid8, set by the
 * column's default: server/db/schema/transaction-id.ts). A count read in the same statement as `pg_current_snapshot()` is the count of
 * that snapshot. A later statement adds the rows it sees that the snapshot did not: those whose
 * inserting transaction the snapshot does not show (`pg_visible_in_snapshot`), found through the
 * inserted_by index from the snapshot's xmin on. Transactions commit in any order; the snapshot
 * says exactly which ones it saw. No trigger, no lock, nothing added to the writers' work.
 */
export interface CountAtSnapshot {
  n: number;
  snapshot: string;
}

export const currentSnapshot = sql<string>`pg_current_snapshot()::text`;

/** Rows the statement sees that `snapshot` did not (add to the WHERE of a count). */
export function addedSince(insertedBy: SQLWrapper, snapshot: string): SQL {
  return sql`(${insertedBy} >= pg_snapshot_xmin(${snapshot}::pg_snapshot) and not pg_visible_in_snapshot(${insertedBy}, ${snapshot}::pg_snapshot))`;
}

/** Columns a page query selects so its count needs no query of its own: rows added since the known count, and the snapshot. */
export function countColumns(addedCount: SQLWrapper | undefined) {
  return {
    added: (addedCount ? sql<number>`(${addedCount})` : sql<number>`0`).mapWith(Number),
    snapshot: currentSnapshot,
  };
}

export interface InsertOnlyCount {
  /** The count known for this filter, if any: page queries add `countColumns(added since it)`. */
  known: CountAtSnapshot | undefined;
  /** The exact count for the page's snapshot, counting again only when nothing is known. */
  resolve(page: Array<{ added: number; snapshot: string }>): Promise<number>;
}

/**
 * The count of one filtered insert-only list: `count` reads it with its snapshot. When nothing is
 * known it runs beside the page query; when the page is empty (past the end) it runs after it.
 */
export function insertOnlyCount(db: DbOrTx, list: string, key: string, count: () => Promise<CountAtSnapshot>): InsertOnlyCount {
  const cache = listCacheOf<string, CountAtSnapshot>(db, list);
  const known = cache?.get(key);
  const counting = known ? undefined : count();
  // Awaited in resolve; a page query that fails first must not leave it unhandled.
  counting?.catch(() => undefined);
  return {
    known,
    resolve: async (page) => {
      const first = page[0];
      const counted = known && first ? { n: known.n + first.added, snapshot: first.snapshot } : await (counting ?? count());
      remember(cache, key, counted);
      return counted.n;
    },
  };
}
