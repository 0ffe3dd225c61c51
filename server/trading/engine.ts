import { sql } from 'drizzle-orm';
import { EntryDirection, ExitType, OrderEntryType, OrderStatus, StrategyStatus } from '../../contract/enums';
import { server as messages } from '../../contract/messages';
import type { DbOrTx } from '../db/client';
import type { Deps } from '../deps';
import { conflict, notFound } from '../http/errors';
import { logStaffAction } from '../lib/staff-log';
import { requestClose } from './execution-state/close-request';
import { loadTradingConfig } from './config';
import { enqueueOrder, type EnqueueResult } from './enqueue';
import { finishOrderIfDone } from './execution-state/order-settlement';

/**
 * The two staff trading actions. Both only write to PostgreSQL in one transaction and wake the
 * dispatchers (NOTIFY): the exchange work happens in whichever process claims it, durably.
 */
export type EngineDeps = Pick<Deps, 'db' | 'config'>;

export interface ManualOrderResult extends EnqueueResult {
  strategyId: string;
}

export interface CloseOrderResult {
  orderId: number;
  /** Positions (or pending entries) now being closed by the dispatcher. */
  closing: number;
}

/** Serialises entries per strategy (concurrent alerts and manual trades of one strategy queue up). */
export async function lockStrategy(tx: DbOrTx, strategyId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`strategy:${strategyId}`}))`);
}

/** POST /api/strategy/{id}/long and /short: one manual Order for every eligible customer (`at`: see EnqueueInput). */
export async function openManualOrder(
  deps: EngineDeps,
  input: { strategyId: string; side: EntryDirection | 'long' | 'short'; at?: Date },
): Promise<ManualOrderResult> {
  const side: EntryDirection = input.side === 'long' ? EntryDirection.Long : input.side === 'short' ? EntryDirection.Short : input.side;
  const { entryDeadlineMs } = loadTradingConfig(deps.config.exchangeMode);
  return deps.db.transaction(async (tx) => {
    const found = await tx.execute<{ status: number }>(sql`select status from strategies where id = ${input.strategyId} and deleted_at is null`);
    const strategy = found.rows[0];
    if (!strategy) throw notFound(`Strategy ${input.strategyId} does not exist.`);
    if (Number(strategy.status) !== StrategyStatus.Active) throw conflict(`Strategy ${input.strategyId} is inactive: activate it before placing an order.`);
    await lockStrategy(tx, input.strategyId);
    const result = await enqueueOrder(tx, {
      strategyId: input.strategyId,
      side,
      entryType: OrderEntryType.Manual,
      signalId: null,
      receiveOnce: false,
      deadlineMs: entryDeadlineMs,
      referencePrice: null,
      at: input.at,
    });
    return { ...result, strategyId: input.strategyId };
  });
}

/**
 * PATCH /api/order/{id}: closes every customer's position of the Order at market, reduce-only, and
 * cancels the remaining TP/SL legs (exit type 1, by admin). A second call is refused (409): the
 * Order is closed, or every live position of it is already being closed.
 */
export async function closeOrder(deps: EngineDeps, input: { orderId: number; actorAccountId: number }): Promise<CloseOrderResult> {
  const result = await deps.db.transaction(async (tx) => {
    const found = await tx.execute<{ status: number }>(sql`select status from orders where id = ${input.orderId} for update`);
    const order = found.rows[0];
    if (!order) throw notFound(`Order ${input.orderId} does not exist.`);
    if (Number(order.status) !== OrderStatus.Active) throw conflict(messages.orderAlreadyClosed(input.orderId));
    const closing = await requestClose(tx, { orderId: input.orderId }, ExitType.ByAdmin);
    if (closing === 0 && (await hasCloseUnderWay(tx, input.orderId))) throw conflict(messages.orderAlreadyClosing(input.orderId));
    await logStaffAction(tx, { actorAccountId: input.actorAccountId, action: 'order.close', targetType: 'order', targetId: input.orderId, details: { positions: closing } });
    return { orderId: input.orderId, closing };
  });
  if (result.closing === 0) await finishOrderIfDone(deps.db, input.orderId);
  return result;
}

async function hasCloseUnderWay(tx: DbOrTx, orderId: number): Promise<boolean> {
  const found = await tx.execute(sql`
    select 1 from executions where order_id = ${orderId} and state in ('pending', 'open') and close_requested_at is not null limit 1`);
  return found.rows.length > 0;
}
