import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';

/** Enough for every filter a back office uses in a day; the oldest entry goes first. */
const MAX_ENTRIES = 1000;

interface CountAtVersion {
  version: number;
  n: number;
}

/** One cache per database handle: two databases in one process never share counts. */
const caches = new WeakMap<object, Map<string, CountAtVersion>>();

/**
 * Exact customer list counts remembered per customer_list_version (migration
 * customer_list_version_sync bumps it on every change a list filter can see). A count read at
 * version v is the count of every snapshot that reads version v, so it is reused only there.
 * Inside a transaction nothing is cached: its own uncommitted bump could be rolled back.
 */
export function countCacheOf(db: DbOrTx): Map<string, CountAtVersion> | undefined {
  if (db instanceof PgTransaction) return undefined;
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

export function cachedCount(cache: Map<string, CountAtVersion> | undefined, key: string, version: number): number | undefined {
  const hit = cache?.get(key);
  return hit?.version === version ? hit.n : undefined;
}

export function rememberCount(cache: Map<string, CountAtVersion> | undefined, key: string, version: number, n: number): void {
  if (!cache) return;
  cache.delete(key);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, { version, n });
}
