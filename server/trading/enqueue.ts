import { CustomerGroup, EntryDirection, NotificationType, OrderEntryType, customerGroupLabels } from '../../contract/enums';
import type { DbOrTx } from '../db/client';
import { entryAudits } from '../db/schema/index';
import { publishNotification } from '../lib/notify';
import type { ExecutionContext } from './context';
import { queueExecutions, type LocalClaim } from './execution-state/create';
import { finishOrderIfDone } from './execution-state/order-settlement';
import { preparedFunctionCall } from './prepared-call';
import { conflictMessage, type EntryTerms, type SharingConflict } from './position-sharing';
export interface EnqueueInput {
  strategyId: string;
  side: EntryDirection;
  entryType: OrderEntryType;
  signalId: number | null;
  /** Apply Receive Webhook Once (webhook entries only). */
  receiveOnce: boolean;
  deadlineMs: number;
  /** Price the alert carried ({{close}}), used to size `$` entries. */
  referencePrice: number | null;
  /** Claim the executions for this process's dispatcher (the in-process hand-off). */
  claim?: LocalClaim | undefined;
  /** When the Order was placed; unset, the database's now() (see StateWriter.at). */
  at?: Date | undefined;
}

export interface EnqueueResult {
  orderId: number;
  executions: number;
  skipped: number;
  /** Executions queued already claimed by `claim.worker`, loaded in the same transaction, to start once committed. */
  claimed: ExecutionContext[];
}

/** An eligible customer as `enqueue_order` answers it: id, group, platform, blocked by Receive Webhook Once, conflicting strategy and why. */
type EligibleRow = [id: number, group: number, platformType: number, blockedByReceiveOnce: boolean, conflictStrategy: string | null, conflictReason: SharingConflict | null];

/** The Order just inserted, its strategy's terms and its eligible customers (by id), as the SQL function `enqueue_order` answers. */
export interface OpenedOrder {
  orderId: number;
  symbol: string;
  positionMode: number;
  trailingStop: boolean;
  customers: EligibleRow[];
}

/**
 * SQL function `enqueue_order` (migration alert_intake_functions): inserts the Order, locks the
 * positions of its eligible customers (an advisory lock per symbol and customer bucket, in key order)
 * and reads them with Receive Webhook Once and position sharing (`position-sharing.ts`) applied;
 * without eligible customers it settles the Order at once.
 */
const enqueueOrderCall = preparedFunctionCall<OpenedOrder, keyof OpenOrderArgs>('trading_enqueue_order', 'enqueue_order', [
  'strategyId', 'signalId', 'side', 'entryType', 'receiveOnce', 'referencePrice', 'at', 'onlyIfEmpty',
], { genericPlans: true });

interface OpenOrderArgs {
  strategyId: string;
  signalId: number | null;
  side: EntryDirection;
  entryType: OrderEntryType;
  receiveOnce: boolean;
  referencePrice: number | null;
  at: string | null;
  onlyIfEmpty: boolean;
}

/** The arguments of `enqueue_order` (and of `receive_alert`'s entry) for an input. */
export function openOrderArgs(input: EnqueueInput, onlyIfEmpty: boolean): OpenOrderArgs {
  return {
    strategyId: input.strategyId,
    signalId: input.signalId,
    side: input.side,
    entryType: input.entryType,
    receiveOnce: input.receiveOnce,
    referencePrice: input.referencePrice,
    at: input.at ? input.at.toISOString() : null,
    onlyIfEmpty,
  };
}

/** One Order and one queued execution per eligible customer, inside the caller's transaction. */
export async function enqueueOrder(tx: DbOrTx, input: EnqueueInput): Promise<EnqueueResult> {
  return queueOpenedOrder(tx, input, await enqueueOrderCall(tx, openOrderArgs(input, false)));
}

/**
 * The rest of an Order `enqueue_order` opened, in the same transaction: the executions of the
 * customers it may enter for (execution-state), the skipped ones' entry audits (and one staff
 * notification), the Order settled when nobody is left, the claimed executions' contexts.
 */
export async function queueOpenedOrder(tx: DbOrTx, input: EnqueueInput, opened: OpenedOrder): Promise<EnqueueResult> {
  const { orderId, customers } = opened;
  if (customers.length === 0) return { orderId, executions: 0, skipped: 0, claimed: [] };
  const terms: EntryTerms = { symbol: opened.symbol, positionMode: Number(opened.positionMode), trailingStop: Boolean(opened.trailingStop), side: input.side };
  const skipReason = ([, group, , blocked, conflictStrategy, conflictReason]: EligibleRow): string | null => {
    if (blocked) {
      return `Receive Webhook Once is on for group ${customerGroupLabels[group as CustomerGroup] ?? group}: the customer already holds a position of strategy ${input.strategyId}, so this entry was skipped`;
    }
    return conflictStrategy && conflictReason ? conflictMessage(terms, conflictStrategy, conflictReason) : null;
  };
  const queued = customers.filter((row) => skipReason(row) === null);
  const skipped = customers.filter((row) => skipReason(row) !== null);
  const claimed = await queueExecutions(tx, { orderId, customers: queued.map(([id, , platformType]) => ({ id, platformType })), deadlineMs: input.deadlineMs, claim: input.claim, at: input.at });
  if (skipped.length > 0) {
    await tx.insert(entryAudits).values(
      skipped.map((row) => ({ orderId, customerId: row[0], strategyId: input.strategyId, entryType: input.entryType, message: skipReason(row)!, datetimeInserted: input.at })),
    );
    await publishNotification(tx, { type: NotificationType.EntryFailure, message: `${skipped.length} entries of strategy ${input.strategyId} skipped` });
  }
  if (queued.length === 0) await finishOrderIfDone(tx, orderId, input.at);
  return { orderId, executions: queued.length, skipped: skipped.length, claimed };
}
