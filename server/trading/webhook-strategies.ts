import { and, eq, isNotNull, isNull } from 'drizzle-orm';
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
 * Webhook tokens to strategies. While this process listens for changes to the strategies table it
 * holds every live strategy by token hash, so an alert costs no database read: a change drops the
 * whole snapshot and reloads it at once; until the new one is in, and while the listener is down, each
 * lookup reads the database, so a stale strategy is never served. A token missing from the snapshot is
 * read from the database too (a strategy created a moment ago may not have been heard of yet).
 */
export interface WebhookStrategies {
  find(db: Db, token: string): Promise<WebhookStrategy | undefined>;
  /** Starts listening on a connection of its own (from the pool's settings) and loads the snapshot through `db`. */
  start(db: Db, pool: pg.Pool, onError: (error: unknown) => void): Promise<void>;
  stop(): Promise<void>;
}

const webhookColumns = { id: strategies.id, symbol: strategies.symbol, entryDirection: strategies.entryDirection, status: strategies.status };
type WebhookRow = { id: string; symbol: string; entryDirection: number; status: number };
const toWebhookStrategy = (row: WebhookRow): WebhookStrategy => ({ ...row, entryDirection: row.entryDirection as EntryDirection });

async function loadByHash(db: Db, tokenHash: string): Promise<WebhookStrategy | undefined> {
  const [row] = await db.select(webhookColumns).from(strategies).where(and(eq(strategies.webhookTokenHash, tokenHash), isNull(strategies.deletedAt))).limit(1);
  return row ? toWebhookStrategy(row) : undefined;
}

async function loadAll(db: Db): Promise<Map<string, WebhookStrategy>> {
  const rows = await db
    .select({ ...webhookColumns, tokenHash: strategies.webhookTokenHash })
    .from(strategies)
    .where(and(isNotNull(strategies.webhookTokenHash), isNull(strategies.deletedAt)));
  return new Map(rows.map(({ tokenHash, ...row }) => [tokenHash!, toWebhookStrategy(row)]));
}

export function createWebhookStrategies(): WebhookStrategies {
  /** Every live strategy with a webhook, as of the last change heard; undefined while not known. */
  let snapshot: Map<string, WebhookStrategy> | undefined;
  let listening = false;
  let stopped = true;
  /** Bumped on every change: a snapshot read while a change happened is not kept. */
  let generation = 0;
  let source: Db | undefined;
  let reloading = false;
  let client: pg.Client | undefined;
  let reconnect: NodeJS.Timeout | undefined;
  let reportError: (error: unknown) => void = () => undefined;

  function reload(): void {
    if (!listening || reloading || snapshot || !source) return;
    reloading = true;
    const seen = generation;
    loadAll(source)
      .then((loaded) => {
        if (listening && seen === generation) snapshot = loaded;
      })
      .catch(reportError)
      .finally(() => {
        reloading = false;
        // A change arrived while reading: read again (a failed read waits for the next lookup or change).
        if (seen !== generation) reload();
      });
  }

  const invalidate = () => {
    generation += 1;
    snapshot = undefined;
    reload();
  };

  async function listen(pool: pg.Pool): Promise<void> {
    const next = new pg.Client(pool.options);
    const lost = (error?: unknown) => {
      if (client !== next) return;
      listening = false;
      client = undefined;
      invalidate();
      next.end().catch(() => undefined);
      if (error) reportError(error);
      if (!stopped) reconnect = setTimeout(() => void listen(pool).catch(reportError), RECONNECT_MS);
    };
    next.on('notification', invalidate);
    next.on('error', lost);
    next.on('end', () => lost());
    client = next;
    await next.connect();
    await next.query(`listen ${STRATEGIES_CHANNEL}`);
    listening = true;
    invalidate();
  }

  return {
    async find(db, token) {
      const hash = sha256(token);
      const known = snapshot?.get(hash);
      if (known) return known;
      // Not in the snapshot: a strategy created a moment ago (its NOTIFY may still be on the way), or no strategy.
      reload();
      return loadByHash(db, hash);
    },
    async start(db, pool, onError) {
      stopped = false;
      source = db;
      reportError = onError;
      await listen(pool);
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
