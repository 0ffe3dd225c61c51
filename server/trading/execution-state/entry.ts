import { sql } from 'drizzle-orm';
import type { OrderEntryType } from '../../../contract/enums';
import type { Db } from '../../db/client';
import { recordEntryAudit } from '../../lib/audits';
import type { ExecutionContext } from '../context';
import type { ExecutionLeg } from '../legs';
import { finishOrderIfDone } from './order-settlement';
import { preparedSql } from '../../db/prepared';
import { instantOf, type StateWriter } from './writer';

/** What the entry put on the exchange: its size, its id, and the protection attached to it. */
interface EntryRecord {
  quantity: number;
  exchangeOrderId: string | undefined;
  /** The TP/SL the exchange makes from the entry's attached levels. */
  legs: ExecutionLeg[];
  stopLossPrice: number | null;
}

/** Entries recorded by one statement at most (one JSON parameter). */
const PLACED_BATCH_MAX = 1_000;

/** Every row of the batch (a JSON array of PlacedRow) opened, by the claim holder only. */
const recordPlaced = preparedSql(
  'trading_entries_placed',
  sql`
    update executions e set state = 'open', quantity = u.quantity, entry_price = null, exchange_order_id = u.exchange_order_id,
      legs = u.legs, stop_loss_price = u.stop_loss_price, entry_sent_at = u.sent_at, entry_acked_at = u.acked_at, updated_at = now()
    from jsonb_to_recordset(${sql.placeholder('rows')}::jsonb)
      as u(id int, quantity numeric, exchange_order_id text, legs jsonb, stop_loss_price numeric, sent_at timestamptz, acked_at timestamptz)
    where e.id = u.id and e.claimed_by = ${sql.placeholder('worker')}`,
);

interface PlacedRow {
  id: number;
  quantity: number;
  exchange_order_id: string | null;
  legs: ExecutionLeg[];
  stop_loss_price: number | null;
  sent_at: string | null;
  acked_at: string | null;
}

/**
 * Transition "entry placed": the exchange acknowledged the entry but its fill is not known yet. The
 * execution is open with the quantity asked for; the fill is read before the legs are placed.
 *
 * A fan-out has thousands of entries acknowledged within a second: one UPDATE each (a round trip, a
 * trigger, a commit) took a large share of the process's and the database's time while the next
 * customers' orders waited. Entries acknowledged while a write is under way are recorded together by
 * the next one (group commit); each caller still returns only once its own row is written. A crash
 * before that leaves the execution pending: its retry finds the order by its client id.
 */
export class PlacedEntries {
  private waiting: Array<{ row: PlacedRow; done: (error?: unknown) => void }> = [];
  private writing = false;

  constructor(private readonly w: { db: Db; worker: string }) {}

  async record(ctx: ExecutionContext, placed: EntryRecord): Promise<void> {
    const row: PlacedRow = {
      id: ctx.id,
      quantity: placed.quantity,
      exchange_order_id: placed.exchangeOrderId ?? null,
      legs: placed.legs,
      stop_loss_price: placed.stopLossPrice,
      sent_at: ctx.entryTimes?.sentAt.toISOString() ?? null,
      acked_at: ctx.entryTimes?.ackedAt.toISOString() ?? null,
    };
    await new Promise<void>((resolve, reject) => {
      this.waiting.push({ row, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.writing) void this.write();
    });
    ctx.state = 'open';
    ctx.quantity = placed.quantity;
    ctx.entryPrice = null;
  }

  private async write(): Promise<void> {
    this.writing = true;
    // Let the entries acknowledged in this turn of the event loop join the first statement.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, PLACED_BATCH_MAX);
      let failure: unknown;
      try {
        await recordPlaced(this.w.db, { rows: JSON.stringify(batch.map((entry) => entry.row)), worker: this.w.worker });
      } catch (error) {
        failure = error ?? new Error('recording placed entries failed');
      }
      for (const entry of batch) entry.done(failure);
    }
    this.writing = false;
  }
}

/** Transition "filled": the entry's fill (what actually filled, at what average price) opens the position. */
export async function markEntryFilled(w: StateWriter, ctx: ExecutionContext, fill: EntryRecord & { avgPrice: number }): Promise<void> {
  await w.db.execute(sql`
    update executions set state = 'open', quantity = ${fill.quantity}, entry_price = ${fill.avgPrice},
      exchange_order_id = ${fill.exchangeOrderId ?? null}, legs = ${JSON.stringify(fill.legs)}::jsonb,
      stop_loss_price = ${fill.stopLossPrice}, updated_at = ${instantOf(w.at)},
      entry_sent_at = coalesce(${ctx.entryTimes?.sentAt.toISOString() ?? null}::timestamptz, entry_sent_at),
      entry_acked_at = coalesce(${ctx.entryTimes?.ackedAt.toISOString() ?? null}::timestamptz, entry_acked_at),
      entry_filled_at = coalesce(entry_filled_at, ${instantOf(w.at)})
    where id = ${ctx.id} and claimed_by = ${w.worker}`);
  ctx.state = 'open';
  ctx.quantity = fill.quantity;
  ctx.entryPrice = fill.avgPrice;
}

/**
 * Transitions "skipped" and "failed": the execution ends without a position and writes its entry
 * audit (and the staff red dot) in the same transaction; the Order settles when it was the last.
 * `from` 'open' is an entry the exchange acknowledged but did not fill.
 */
export async function markEndedWithoutPosition(
  w: StateWriter & { db: Db },
  ctx: ExecutionContext,
  state: 'skipped' | 'failed',
  message: string,
  from: 'pending' | 'open' = 'pending',
): Promise<void> {
  const ended = await w.db.transaction(async (tx) => {
    const updated = await tx.execute(sql`
      update executions set state = ${state}, last_error = ${message}, claimed_by = null, claim_expires_at = null, updated_at = ${instantOf(w.at)}
      where id = ${ctx.id} and claimed_by = ${w.worker} and state = ${from}`);
    if ((updated.rowCount ?? 0) === 0) return false;
    await recordEntryAudit(tx, { orderId: ctx.orderId, customerId: ctx.customerId, strategyId: ctx.strategy.id, entryType: ctx.entryType as OrderEntryType, message, at: w.at });
    return true;
  });
  if (ended) await finishOrderIfDone(w.db, ctx.orderId, w.at);
}
