import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { EntryDirection } from '../../contract/enums';
import { ChannelListener } from '../db/channel-listener';
import type { Db } from '../db/client';
import { strategies } from '../db/schema/index';
import { sha256 } from '../lib/tokens';

/** What a webhook alert needs to know of its strategy. */
export interface WebhookStrategy {
  id: string;
  symbol: string;
  entryDirection: EntryDirection;
  status: number;
  /** Guard: the maximum age of an entry alert in seconds; null: MAX_ALERT_AGE_MS. */
  maxAlertAgeS: number | null;
}

/** NOTIFY channel of the `strategies` table's trigger (migration `strategies_changed_notify`): any change to a strategy row. */
export const STRATEGIES_CHANNEL = 'strategies_changed';

/**
 * Webhook tokens to strategies. While this process listens for changes to the strategies table it
 * holds every live strategy by token hash, so an alert costs no database read: a change drops the
 * whole snapshot and reloads it at once; until the new one is in, and while the listener is down, each
 * lookup reads the database. A change made in this process is heard at its commit (`changed`), before
 * its notification: the old token of a rotation is refused from the rotation's answer on. A token missing from the snapshot is
 * read from the database too (a strategy created a moment ago may not have been heard of yet).
 */
export interface WebhookStrategies {
  find(db: Db, token: string): Promise<WebhookStrategy | undefined>;
  /**
   * Starts listening on a connection of its own (from the pool's settings; reconnected with backoff when
   * lost) and loads the snapshot through `db`.
   */
  start(db: Db, pool: pg.Pool, log: FastifyBaseLogger): Promise<void>;
  /**
   * A change to a strategy this process has committed: the snapshot is dropped now, not when the change's
   * notification arrives, so the answer to the change is never followed by a lookup that misses it.
   */
  changed(): void;
  stop(): Promise<void>;
}

const webhookColumns = { id: strategies.id, symbol: strategies.symbol, entryDirection: strategies.entryDirection, status: strategies.status, maxAlertAgeS: strategies.maxAlertAgeS };
type WebhookRow = { id: string; symbol: string; entryDirection: number; status: number; maxAlertAgeS: number | null };
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
  /** Bumped on every change: a snapshot read while a change happened is not kept. */
  let generation = 0;
  let source: Db | undefined;
  let reloading = false;
  let listener: ChannelListener | undefined;
  let log: FastifyBaseLogger | undefined;

  function reload(): void {
    if (!listener?.listening || reloading || snapshot || !source) return;
    reloading = true;
    const seen = generation;
    loadAll(source)
      .then((loaded) => {
        if (listener?.listening && seen === generation) snapshot = loaded;
      })
      .catch((error: unknown) => log?.error({ err: error }, 'webhook strategies could not be read'))
      .finally(() => {
        reloading = false;
        // A change arrived while reading: read again (a failed read waits for the next lookup or change).
        if (seen !== generation) reload();
      });
  }

  /** A change heard, LISTEN (re)started, or the connection lost (changes may go unheard): the snapshot is dropped. */
  const invalidate = () => {
    generation += 1;
    snapshot = undefined;
    reload();
  };

  return {
    async find(db, token) {
      const hash = sha256(token);
      const known = snapshot?.get(hash);
      if (known) return known;
      // Not in the snapshot: a strategy created a moment ago (its NOTIFY may still be on the way), or no strategy.
      reload();
      return loadByHash(db, hash);
    },
    async start(db, pool, processLog) {
      source = db;
      log = processLog;
      listener = new ChannelListener(pool.options, STRATEGIES_CHANNEL, { message: invalidate, listening: invalidate, lost: invalidate }, processLog, 'webhook-strategies');
      await listener.start();
    },
    changed: invalidate,
    async stop() {
      const current = listener;
      listener = undefined;
      invalidate();
      await current?.stop();
    },
  };
}
