import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { EntryDirection, ExitType, OrderEntryType, OrderStatus, StrategyStatus } from '../../contract/enums';
import type { WebhookAnswer } from '../../contract/api/webhook';
import { server as messages, ui } from '../../contract/messages';
import type { DbOrTx } from '../db/client';
import { LANES } from './lanes';
import type { TradingDeps } from './deps';
import { recordEntryAudit, recordExitAudit } from '../lib/audits';
import { logStaffAction } from '../lib/staff-log';
import { enqueueOrder, openOrderArgs, queuedResult, type EnqueueInput, type EnqueueResult, type LocalClaim, type OpenOrderArgs, type QueuedOrder } from './enqueue';
import { preparedFunctionCall } from './prepared-call';
import { missing, refusedInState } from './refusal';
import { requestClose, type CloseScope } from './execution-state/close-request';
import { finishOrderIfDone } from './execution-state/order-settlement';
import type { WebhookStrategy } from './webhook-strategies';

export type { CloseScope };

/**
 * The one way into trading: webhook alerts, manual long/short and closing an Order. An entry alert is
 * one statement committed on its own, the others one short transaction; entries queued by a process
 * that runs a dispatcher start in that process right after the commit (`Deps.intake.handoff`), the
 * rest wake every dispatcher through NOTIFY.
 */
export type IntakeDeps = Pick<TradingDeps, 'db' | 'clock' | 'config' | 'intake'>;

export type { WebhookStrategy } from './webhook-strategies';

/** What an alert asks for, as the webhook route understood it. */
export interface AlertInput {
  action: 'open' | 'close';
  alertId: string | null;
  timestamp: Date | null;
  price: number | null;
}

export interface ManualOrderResult extends Omit<EnqueueResult, 'claimed' | 'claimedLater'> {
  strategyId: string;
}

export interface CloseOrderResult {
  orderId: number;
  /** Positions (or pending entries) now being closed by the dispatcher. */
  closing: number;
}

export const bodyHash = (body: string) => createHash('sha256').update(body.trim()).digest('hex');

/** The strategy of a webhook token (cached while this process listens for strategy changes). */
export function findWebhookStrategy(deps: Pick<TradingDeps, 'db' | 'intake'>, token: string): Promise<WebhookStrategy | undefined> {
  return deps.intake.strategies.find(deps.db, token);
}

/** Serialises entries per strategy (concurrent alerts and manual trades of one strategy queue up; other strategies never wait). */
async function lockStrategy(tx: DbOrTx, strategyId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`strategy:${strategyId}`}))`);
}

/** Claims for this process's dispatcher, if one runs here and has room. */
function localClaim(deps: IntakeDeps): LocalClaim | undefined {
  const runner = deps.intake.handoff.runner();
  if (!runner) return undefined;
  const room = Object.fromEntries(LANES.map((lane) => [lane, runner.freeSlots(lane)]));
  if (LANES.every((lane) => room[lane]! <= 0)) return undefined;
  return { worker: runner.worker, leaseMs: runner.leaseMs, room, slices: runner.slices(), answer: runner.contextsInStatement };
}

/** After the commit: the executions claimed in this process's name start here, now. */
function startClaimed(deps: IntakeDeps, queued: Pick<EnqueueResult, 'claimed' | 'claimedLater'> | undefined): void {
  if (queued && queued.claimed.length + queued.claimedLater.length > 0) deps.intake.handoff.runner()?.adopt(queued.claimed, queued.claimedLater);
}

/** An alert refused before anything was queued: one entry-audit row (and the staff red dot). */
export async function auditRefusedAlert(deps: Pick<TradingDeps, 'db'>, strategyId: string, reason: string): Promise<void> {
  await recordEntryAudit(deps.db, { orderId: null, customerId: null, strategyId, entryType: OrderEntryType.Api, message: `Webhook alert refused: ${reason}` });
}

/** What `receive_alert` answers: the signal stored (or the earlier one a repeat matched) and the Order an entry opened, queued. */
interface ReceivedAlert {
  signalId: number;
  duplicate: boolean;
  order: QueuedOrder | null;
}

type ReceiveAlertArgs = Omit<OpenOrderArgs, 'signalId' | 'receiveOnce'> & {
  action: AlertInput['action'];
  alertId: string | null;
  bodyHash: string;
  body: string;
  sourceIp: string;
  receivedAt: string;
  repeatSince: string;
  staleMessage: string | null;
};

/**
 * SQL function `receive_alert` (server/db/functions/alert-intake.sql): the strategy's advisory lock, the
 * repeat check, the signal, and for an entry the Order and its executions (`open_order`), in one statement.
 */
const receiveAlertCall = preparedFunctionCall<ReceivedAlert, keyof ReceiveAlertArgs>('trading_receive_alert', 'receive_alert', [
  'strategyId',
  'action',
  'alertId',
  'bodyHash',
  'body',
  'sourceIp',
  'receivedAt',
  'repeatSince',
  'staleMessage',
  'side',
  'entryType',
  'referencePrice',
  'at',
  'deadlineS',
  'claim',
  'messages',
], { genericPlans: true });

/**
 * The signal, and for an entry the Order with one execution per eligible customer (one statement,
 * its own transaction), or for a close the close requests (one transaction), serialised per strategy
 * (advisory lock), so a repeat (same alert id, or same body within the window) is recognised even
 * when two copies race.
 */
export async function receiveAlert(
  deps: IntakeDeps,
  input: { strategy: WebhookStrategy; alert: AlertInput; body: string; sourceIp: string; backdated?: boolean },
): Promise<WebhookAnswer> {
  const { strategy, alert } = input;
  const trading = deps.config.trading;
  const now = deps.clock.now();
  // The Order and close requests are stamped by the database unless the caller replays history (demo seeding).
  const at = input.backdated ? now : undefined;
  const base = { message: ui.strategy.webhookReceived, action: alert.action, orderId: null, executions: 0, skipped: 0, closing: 0 };
  const maxAgeMs = strategy.maxAlertAgeS === null ? trading.maxAlertAgeMs : strategy.maxAlertAgeS * 1000;
  const stale = alert.timestamp !== null && now.getTime() - alert.timestamp.getTime() > maxAgeMs;
  const entry: EnqueueInput = {
    strategyId: strategy.id,
    side: strategy.entryDirection,
    entryType: OrderEntryType.Api,
    signalId: null,
    receiveOnce: true,
    deadlineMs: trading.entryDeadlineMs,
    referencePrice: alert.price,
    at,
  };
  const claim = alert.action === 'open' && !stale ? localClaim(deps) : undefined;
  if (claim) deps.intake.handoff.runner()?.prepare(strategy.symbol);
  const { signalId: _signal, receiveOnce: _once, ...order } = openOrderArgs({ ...entry, claim });
  const args: ReceiveAlertArgs = {
    ...order,
    action: alert.action,
    alertId: alert.alertId,
    bodyHash: bodyHash(input.body),
    body: input.body.slice(0, 10_000),
    sourceIp: input.sourceIp,
    receivedAt: now.toISOString(),
    repeatSince: new Date(now.getTime() - trading.duplicateWindowMs).toISOString(),
    staleMessage: stale
      ? `Webhook alert of ${alert.timestamp!.toISOString()} arrived more than ${Math.round(maxAgeMs / 1000)} s late; no order was placed`
      : null,
  };
  const answerOf = (received: ReceivedAlert, queued?: EnqueueResult): WebhookAnswer => ({
    ...base,
    signalId: Number(received.signalId),
    duplicate: received.duplicate,
    ...(received.order ? { orderId: Number(received.order.orderId) } : {}),
    ...(queued ? { executions: queued.executions, skipped: queued.skipped } : {}),
  });

  if (alert.action === 'open') {
    const received = await receiveAlertCall(deps.intake.db, args);
    const queued = received.order ? queuedResult(received.order) : undefined;
    startClaimed(deps, queued);
    return answerOf(received, queued);
  }

  return deps.intake.db.transaction(async (tx) => {
    const received = await receiveAlertCall(tx, args);
    if (received.duplicate) return answerOf(received);
    const closing = await requestClose(tx, { strategyId: strategy.id }, null, { at });
    if (closing === 0) {
      await recordExitAudit(tx, {
        orderId: null,
        customerId: null,
        strategyId: strategy.id,
        exitType: null,
        message: `Close alert received for strategy ${strategy.id} with no open position: nothing to close`,
        isError: false,
        at,
      });
    }
    return { ...answerOf(received), closing };
  });
}

/** POST /api/strategy/{id}/long and /short: one manual Order for every eligible customer (`at`: see EnqueueInput). */
export async function openManualOrder(deps: IntakeDeps, input: { strategyId: string; side: EntryDirection | 'long' | 'short'; at?: Date }): Promise<ManualOrderResult> {
  const side: EntryDirection = input.side === 'long' ? EntryDirection.Long : input.side === 'short' ? EntryDirection.Short : input.side;
  const claim = localClaim(deps);
  const result = await deps.intake.db.transaction(async (tx) => {
    const found = await tx.execute<{ status: number }>(sql`select status from strategies where id = ${input.strategyId} and deleted_at is null`);
    const strategy = found.rows[0];
    if (!strategy) throw missing(`Strategy ${input.strategyId} does not exist.`);
    if (Number(strategy.status) !== StrategyStatus.Active) throw refusedInState(`Strategy ${input.strategyId} is inactive: activate it before placing an order.`);
    await lockStrategy(tx, input.strategyId);
    const queued = await enqueueOrder(tx, {
      strategyId: input.strategyId,
      side,
      entryType: OrderEntryType.Manual,
      signalId: null,
      receiveOnce: false,
      deadlineMs: deps.config.trading.entryDeadlineMs,
      referencePrice: null,
      claim,
      at: input.at,
    });
    return { ...queued, strategyId: input.strategyId };
  });
  startClaimed(deps, result);
  return { orderId: result.orderId, executions: result.executions, skipped: result.skipped, strategyId: result.strategyId };
}

/**
 * PATCH /api/order/{id}: closes every customer's position of the Order at market, reduce-only, and
 * cancels the remaining TP/SL legs (exit type 1, by admin). A second call is refused (409): the
 * Order is closed, or every live position of it is already being closed.
 */
export async function closeOrder(deps: Pick<TradingDeps, 'db'>, input: { orderId: number; actorAccountId: number }): Promise<CloseOrderResult> {
  const result = await deps.db.transaction(async (tx) => {
    const found = await tx.execute<{ status: number }>(sql`select status from orders where id = ${input.orderId} for update`);
    const order = found.rows[0];
    if (!order) throw missing(`Order ${input.orderId} does not exist.`);
    if (Number(order.status) !== OrderStatus.Active) throw refusedInState(messages.orderAlreadyClosed(input.orderId));
    const closing = await requestClose(tx, { orderId: input.orderId }, ExitType.ByAdmin);
    if (closing === 0 && (await hasCloseUnderWay(tx, input.orderId))) throw refusedInState(messages.orderAlreadyClosing(input.orderId));
    await logStaffAction(tx, { actorAccountId: input.actorAccountId, action: 'order.close', targetType: 'order', targetId: input.orderId, details: { positions: closing } });
    return { orderId: input.orderId, closing };
  });
  if (result.closing === 0) await finishOrderIfDone(deps.db, input.orderId);
  return result;
}

/**
 * A close-all (issue 29): every live execution of the scope (a strategy's active orders, a customer, or
 * every one) is marked for closing by admin, carrying the close-all's id; the dispatcher closes them as
 * it closes an Order's. Answers how many were marked.
 */
export function requestCloseAll(tx: DbOrTx, scope: CloseScope, closeAllId: number): Promise<number> {
  return requestClose(tx, scope, ExitType.ByAdmin, { closeAllId });
}

async function hasCloseUnderWay(tx: DbOrTx, orderId: number): Promise<boolean> {
  const found = await tx.execute(sql`
    select 1 from executions where order_id = ${orderId} and state in ('pending', 'open') and close_requested_at is not null limit 1`);
  return found.rows.length > 0;
}

/** After a wallet read (server/modules/account-health): the customer's maximum drawdown guard (trading/loss-guards.ts). */
export { applyDrawdownGuard } from './loss-guards';
