import { sql } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { listCacheOf, remember } from './list-cache';
import { preparedSql } from './prepared';
import { deepFreeze } from '../lib/deep-freeze';

/**
 * Answers kept per list and process. A kept answer's rows are shared with the row cache, but its JSON
 * (written once, server/http/serializer.ts) is about 40 KB a page of 50: at most some 20 MB a list.
 */
const MAX_ANSWERS = 500;

/**
 * A list's change counter as one statement: the value while no change to what the list shows is in
 * flight, else null (the SQL function takes a try-lock that every writer holds shared until its
 * commit is visible, then reads the counter; migration customer_list_changes).
 */
export function settledVersionOf(fn: string): (db: DbOrTx) => Promise<string | null> {
  const call = preparedSql<{ version: string | null }>(`${fn}_call`, sql`select ${sql.raw(fn)}() as version`);
  return async (db) => (await call(db, {}))[0]?.version ?? null;
}

interface Kept<T> {
  version: string;
  answer: T | Promise<T>;
}

/** A version "lists/figures" (or one counter alone): the part before the slash. */
const listsPartOf = (version: string) => version.split('/', 1)[0];

/**
 * The answer of a list request, reused while the list's settled version is the one it was read
 * at. The version is read first and the answer after it, so a kept answer is that version's or
 * newer; any committed change moves the version, so a matching version means nothing the answer
 * shows has changed. While a change is in flight (no settled version) and inside a transaction
 * the answer is read, not kept. Kept answers are frozen: every request reusing them shares them.
 * Requests that miss at the same version share one read.
 *
 * A version may have two parts, "lists/figures", the second moved by changes of a few columns
 * only: when just that part moved, `figuresShown` checks the kept answer against the database (read
 * after the version) and the answer is kept on under the new version if they still match.
 */
export async function settledAnswer<T>(
  db: DbOrTx,
  list: string,
  key: string,
  settledVersion: (db: DbOrTx) => Promise<string | null>,
  read: () => Promise<T>,
  figuresShown?: (answer: T) => Promise<boolean>,
): Promise<T> {
  const cache = listCacheOf<string, Kept<T>>(db, list);
  if (!cache) return read();
  const version = await settledVersion(db);
  if (version === null) return read();
  const kept = cache.get(key);
  if (kept?.version === version) return kept.answer;
  if (kept && figuresShown && listsPartOf(kept.version) === listsPartOf(version)) {
    const answer = await Promise.resolve(kept.answer).catch(() => undefined);
    if (answer !== undefined && (await figuresShown(answer))) {
      if (cache.get(key) === kept) kept.version = version;
      return answer;
    }
  }
  // Kept while it is read too: the requests that miss together after a change share one read.
  const reading = read().then(deepFreeze);
  const entry: Kept<T> = { version, answer: reading };
  remember(cache, key, entry, MAX_ANSWERS);
  try {
    entry.answer = await reading;
  } catch (error) {
    if (cache.get(key) === entry) cache.delete(key);
    throw error;
  }
  return entry.answer;
}
