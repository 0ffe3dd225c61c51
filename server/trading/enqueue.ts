import { CustomerGroup, EntryDirection, OrderEntryType, customerGroupLabels, enumValues } from '../../contract/enums';
import type { DbOrTx } from '../db/client';
import { contextsOf, type ContextTable, type ExecutionContext } from './context';
import type { ExchangeId } from './exchanges/types';
import { preparedFunctionCall } from './prepared-call';
import { PAUSE_SKIP_MESSAGES } from './pauses';
import { conflictMessage, type SharingConflict } from './position-sharing';

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

/** Executions the queuing statement claims for its own process's dispatcher (the in-process hand-off). */
export interface LocalClaim {
  worker: string;
  leaseMs: number;
  /** At most this many per lane (the dispatcher's free slots of that exchange); the rest wait in the queue for any process. */
  room: Partial<Record<ExchangeId, number>>;
  /** Only accounts of these slices (customer id % ACCOUNT_SLICES), which this worker leases and holds warm; null: every account. */
  slices: readonly number[] | null;
  /** The statement reads the contexts of the first this many claimed executions; the others are answered by id. */
  answer: number;
}

export interface EnqueueResult {
  orderId: number;
  executions: number;
  skipped: number;
  /** Executions queued already claimed by `claim.worker`, read by the same statement, to start at once. */
  claimed: ExecutionContext[];
  /** Executions also claimed by `claim.worker` past `claim.answer`, by id: their contexts are read after the commit. */
  claimedLater: number[];
}

/** What the SQL function `open_order` answers (the claimed executions' contexts as a table). */
export interface QueuedOrder {
  orderId: number;
  executions: number;
  skipped: number;
  claimed: ContextTable | [];
  claimedLater?: number[];
}

const CONFLICTS: SharingConflict[] = ['nets', 'modes', 'trailing'];

/**
 * The texts of the entry audits of skipped customers, per entry side, as the JSON handed to
 * `open_order` (server/db/functions/alert-intake.sql), which fills in the alert's strategy ({strategy}),
 * the symbol ({symbol}) and the other strategy ({other}). Built once, not per alert.
 */
const SKIP_MESSAGES = Object.fromEntries(
  enumValues(EntryDirection).map((side) => [
    side,
    JSON.stringify({
      once: Object.fromEntries(
        enumValues(CustomerGroup).map((group) => [
          group,
          `Receive Webhook Once is on for group ${customerGroupLabels[group]}: the customer already holds a position of strategy {strategy}, so this entry was skipped`,
        ]),
      ),
      conflict: Object.fromEntries(CONFLICTS.map((reason) => [reason, conflictMessage({ symbol: '{symbol}', side }, '{other}', reason)])),
      paused: PAUSE_SKIP_MESSAGES,
    }),
  ]),
) as Record<EntryDirection, string>;

/** The arguments `open_order` (and `receive_alert` for an entry) take for an input. */
export function openOrderArgs(input: EnqueueInput) {
  const claim = input.claim;
  return {
    strategyId: input.strategyId,
    signalId: input.signalId,
    side: input.side,
    entryType: input.entryType,
    receiveOnce: input.receiveOnce,
    referencePrice: input.referencePrice,
    at: input.at ? input.at.toISOString() : null,
    deadlineS: input.deadlineMs / 1000,
    claim: claim ? JSON.stringify({ worker: claim.worker, leaseS: claim.leaseMs / 1000, room: claim.room, slices: claim.slices, answer: claim.answer }) : null,
    messages: SKIP_MESSAGES[input.side],
  };
}

export type OpenOrderArgs = ReturnType<typeof openOrderArgs>;

/**
 * SQL function `open_order` (server/db/functions/alert-intake.sql): inserts the Order, locks the positions
 * of its eligible customers and reads them with Receive Webhook Once and position sharing
 * (`position-sharing.ts`) applied (`enqueue_order`), queues one execution per customer it may enter
 * for, audits the skipped ones, settles the Order when nobody is left, and answers the contexts of the
 * executions it claimed for this process's dispatcher.
 */
const openOrderCall = preparedFunctionCall<QueuedOrder, keyof OpenOrderArgs>('trading_open_order', 'open_order', [
  'strategyId', 'signalId', 'side', 'entryType', 'receiveOnce', 'referencePrice', 'at', 'deadlineS', 'claim', 'messages',
], { genericPlans: true });

export function queuedResult(queued: QueuedOrder): EnqueueResult {
  return {
    orderId: Number(queued.orderId),
    executions: Number(queued.executions),
    skipped: Number(queued.skipped),
    claimed: contextsOf(queued.claimed),
    claimedLater: (queued.claimedLater ?? []).map(Number),
  };
}

/** One Order and one queued execution per eligible customer, in one statement (inside the caller's transaction, if any). */
export async function enqueueOrder(db: DbOrTx, input: EnqueueInput): Promise<EnqueueResult> {
  return queuedResult(await openOrderCall(db, openOrderArgs(input)));
}
