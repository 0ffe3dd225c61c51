import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';

/** Enough counts for every filter a back office uses in a day; the oldest entry goes first. */
const MAX_COUNTS = 1000;

/** One cache per database handle and list: two databases in one process never share entries. */
const caches = new WeakMap<object, Map<string, Map<unknown, unknown>>>();

/**
 * What a list may reuse between requests (exact counts, rows), keyed by the list's own terms; what
 * makes an entry reusable is the list's own (customers: the list version for counts, the rows'
 * xmins for rows; orders and audits: the snapshot, server/db/insert-only-count.ts).
 * Inside a transaction nothing is cached: its own uncommitted changes could be rolled back.
 */
export function listCacheOf<K, T>(db: DbOrTx, list: string): Map<K, T> | undefined {
  if (db instanceof PgTransaction) return undefined;
  let lists = caches.get(db);
  if (!lists) {
    lists = new Map();
    caches.set(db, lists);
  }
  let cache = lists.get(list);
  if (!cache) {
    cache = new Map();
    lists.set(list, cache);
  }
  return cache as Map<K, T>;
}

/** Keeps `value` as the newest entry; past `maxEntries` the oldest goes. */
export function remember<K, T>(cache: Map<K, T> | undefined, key: K, value: T, maxEntries = MAX_COUNTS): void {
  if (!cache) return;
  cache.delete(key);
  if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as K);
  cache.set(key, value);
}
