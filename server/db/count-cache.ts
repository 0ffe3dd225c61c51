import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';

/** Enough for every filter a back office uses in a day; the oldest entry goes first. */
const MAX_ENTRIES = 1000;

/** One cache per database handle and list: two databases in one process never share counts. */
const caches = new WeakMap<object, Map<string, Map<string, unknown>>>();

/**
 * Exact list counts a list may reuse, keyed by its filters; what makes one reusable is the list's
 * own (customers: the list version; orders and audits: the snapshot, server/db/insert-only-count.ts).
 * Inside a transaction nothing is cached: its own uncommitted changes could be rolled back.
 */
export function countCacheOf<T>(db: DbOrTx, list: string): Map<string, T> | undefined {
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
  return cache as Map<string, T>;
}

export function rememberCount<T>(cache: Map<string, T> | undefined, key: string, value: T): void {
  if (!cache) return;
  cache.delete(key);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}
