import { and, eq, isNull } from 'drizzle-orm';
import pg from 'pg';
import type { EntryDirection } from '../../contract/enums';
import type { Db } from '../db/client';
import { strategies } from '../db/schema/index';
import { sha256 } from '../lib/tokens';

/** What a webhook alert needs to know of its strategy. */
export interface WebhookStrategy {
  id: string;
  symbol: string;
  entryDirection: EntryDirection;
  status: number;
}

/** NOTIFY channel of the `strategies` table's trigger (migration `strategies_changed_notify`): any change to a strategy row. */
export const STRATEGIES_CHANNEL = 'strategies_changed';
const RECONNECT_MS = 1_000;

/**
 * Webhook tokens to strategies, cached in memory while this process listens for changes to the
 * strategies table: every change (token rotated, status, symbol, deletion) empties the cache. While
 * the listener is down nothing is cached, so a stale strategy is never served.
 */
export interface WebhookStrategies {
  find(db: Db, token: string): Promise<WebhookStrategy | undefined>;
  /** Starts listening on a connection of its own (from the pool's settings); the cache works from then on. */
  start(pool: pg.Pool, onError: (error: unknown) => void): Promise<void>;
  stop(): Promise<void>;
}

async function loadByHash(db: Db, tokenHash: string): Promise<WebhookStrategy | undefined> {
  const [row] = await db
    .select({ id: strategies.id, symbol: strategies.symbol, entryDirection: strategies.entryDirection, status: strategies.status })
    .from(strategies)
    .where(and(eq(strategies.webhookTokenHash, tokenHash), isNull(strategies.deletedAt)))
    .limit(1);
  return row ? { ...row, entryDirection: row.entryDirection as EntryDirection } : undefined;
}

export function createWebhookStrategies(): WebhookStrategies {
  const cache = new Map<string, WebhookStrategy>();
  let listening = false;
  let stopped = true;
  /** Bumped on every change: a lookup that raced with a change is not cached. */
  let generation = 0;
  let client: pg.Client | undefined;
  let reconnect: NodeJS.Timeout | undefined;

  const invalidate = () => {
    generation += 1;
    cache.clear();
  };

  async function listen(pool: pg.Pool, onError: (error: unknown) => void): Promise<void> {
    const next = new pg.Client(pool.options);
    const lost = (error?: unknown) => {
      if (client !== next) return;
      listening = false;
      client = undefined;
      invalidate();
      next.end().catch(() => undefined);
      if (error) onError(error);
      if (!stopped) reconnect = setTimeout(() => void listen(pool, onError).catch(onError), RECONNECT_MS);
    };
    next.on('notification', invalidate);
    next.on('error', lost);
    next.on('end', () => lost());
    client = next;
    await next.connect();
    await next.query(`listen ${STRATEGIES_CHANNEL}`);
    invalidate();
    listening = true;
  }

  return {
    async find(db, token) {
      const hash = sha256(token);
      const hit = cache.get(hash);
      if (hit) return hit;
      const seen = generation;
      const found = await loadByHash(db, hash);
      if (found && listening && seen === generation) cache.set(hash, found);
      return found;
    },
    async start(pool, onError) {
      stopped = false;
      await listen(pool, onError);
    },
    async stop() {
      stopped = true;
      if (reconnect) clearTimeout(reconnect);
      const current = client;
      client = undefined;
      listening = false;
      invalidate();
      await current?.end().catch(() => undefined);
    },
  };
}
