import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';
import { listCacheOf, remember } from './list-cache';
import { inOrderOf } from './prepared';
import { deepFreeze } from '../lib/deep-freeze';

/** Rows kept per list and process (1-2 KB each): two hundred pages of 50. */
const MAX_ROWS = 10_000;

/**
 * Which version of a listed row the database holds: the xmin of each table row joined into it
 * (`rowVersionOf`). Any update of any of them writes a new row version with a new xmin (freezing
 * keeps the xmin), so an unchanged value means an unchanged row.
 */
export interface RowVersion {
  id: number;
  rowVersion: string;
}

/** The `RowVersion` of a row joined from these tables (each as named in its query; a missing left join adds nothing). */
export function rowVersionOf(...tables: PgTable[]): SQL<string> {
  return sql<string>`concat(${sql.join(
    tables.map((table) => sql`${table}.xmin`),
    sql`, '.', `,
  )})`;
}

export interface VersionedReads<Item> {
  /** The current versions of these rows (one narrow query: the ids and their versions). */
  versions(ids: number[]): Promise<RowVersion[]>;
  /** The rows themselves. */
  rows(ids: number[]): Promise<Item[]>;
  idOf(item: Item): number;
}

interface Kept<Item> {
  rowVersion: string;
  item: Item;
}

/**
 * The rows of a page's ids, in the page's order (a row gone meanwhile is left out). A row read
 * before is reused while its version is still the database's; the others are read again and kept
 * under the version just read: read after it, their content is that version or newer, and a newer
 * one never matches again, so a kept row is never older than its version says. Inside a transaction
 * nothing is kept (its own changes could be rolled back): the rows are read.
 */
export async function versionedRows<Item>(db: DbOrTx, list: string, ids: number[], reads: VersionedReads<Item>): Promise<Item[]> {
  if (ids.length === 0) return [];
  const cache = listCacheOf<number, Kept<Item>>(db, list);
  if (!cache) return inOrderOf(ids, await reads.rows(ids), reads.idOf, (item) => item);
  const found = new Map<number, Item>();
  const stale = new Map<number, string>();
  for (const { id, rowVersion } of await reads.versions(ids)) {
    const kept = cache.get(id);
    if (kept?.rowVersion === rowVersion) found.set(id, kept.item);
    else stale.set(id, rowVersion);
  }
  if (stale.size > 0) {
    for (const item of await reads.rows([...stale.keys()])) {
      const id = reads.idOf(item);
      found.set(id, item);
      remember(cache, id, { rowVersion: stale.get(id)!, item: deepFreeze(item) }, MAX_ROWS);
    }
  }
  return ids.flatMap((id) => found.get(id) ?? []);
}
