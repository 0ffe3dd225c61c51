import { sql } from 'drizzle-orm';
import { AccountStatus, CustomerGroup, EntryDirection, NotificationType, OrderEntryType, customerGroupLabels } from '../../contract/enums';
import type { DbOrTx } from '../db/client';
import { entryAudits } from '../db/schema/index';
import { publishNotification } from '../lib/notify';
import { loadContexts, type ExecutionContext } from './context';
import { queueExecutions, type LocalClaim } from './execution-state/create';
import { instantOf } from './execution-state/writer';
import { finishOrderIfDone } from './execution-state/order-settlement';
import { conflictMessage, conflictingExecution, type EntryTerms, type SharingConflict } from './position-sharing';

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

interface EligibleRow extends Record<string, unknown> {
  id: number;
  group: number;
  platform_type: number;
  blocked_by_receive_once: boolean;
  conflict_strategy: string | null;
  conflict_reason: SharingConflict | null;
}

/**
 * ARCHITECTURE 6 "eligible": account Active, exchange connected with credentials, group among the
 * strategy's groups; Exclusive only for the strategy's exclusive customer while Internal is chosen.
 */
const eligibleWhere = (strategyId: string) => sql`
    a.status = ${AccountStatus.Active} and a.deleted_at is null
      and c.platform_type in (1, 2) and c.api_key_enc is not null and c.api_secret_enc is not null
      and (
        (c."group" <> ${CustomerGroup.Exclusive} and c."group" in (select "group" from strategy_groups where strategy_id = ${strategyId}))
        or (c."group" = ${CustomerGroup.Exclusive}
            and c.id = (select exclusive_customer_id from strategies where id = ${strategyId})
            and exists (select 1 from strategy_groups where strategy_id = ${strategyId} and "group" = ${CustomerGroup.Exclusive})
            and exists (select 1 from strategy_groups where strategy_id = ${strategyId} and "group" = ${CustomerGroup.Internal}))
      )`;

/** Customers are spread over this many lock buckets per symbol: an alert holds at most this many advisory locks. */
const POSITION_LOCK_BUCKETS = 256;

/**
 * Serialises entries on one symbol for the same customers: an advisory lock per (symbol, customer
 * bucket) of every eligible customer, taken in key order so two alerts never deadlock. Two concurrent
 * alerts for one customer and symbol cannot both miss each other's execution in the sharing check;
 * alerts on other symbols, or with no customers in common, do not wait for each other.
 */
async function lockCustomerPositions(tx: DbOrTx, strategyId: string, symbol: string): Promise<void> {
  await tx.execute(sql`
    select pg_advisory_xact_lock(k) from (
      select distinct hashtext(${`position:${symbol}:`} || (c.id % ${POSITION_LOCK_BUCKETS})) as k
      from customers c join accounts a on a.id = c.account_id
      where ${eligibleWhere(strategyId)}
      order by k) keys`);
}

/**
 * The eligible customers (see `eligibleWhere`), read after their positions are locked.
 * `blocked_by_receive_once`: the group has Receive Webhook Once on and the customer already holds a
 * position (or a pending entry) of this strategy. `conflict_*`: a live execution the entry could not
 * share the exchange position with (`position-sharing.ts`).
 */
async function eligibleCustomers(tx: DbOrTx, strategyId: string, receiveOnce: boolean, terms: EntryTerms): Promise<EligibleRow[]> {
  const result = await tx.execute<EligibleRow>(sql`
    select c.id, c."group", c.platform_type, conflict.strategy_id as conflict_strategy, conflict.reason as conflict_reason,
      (${receiveOnce} and exists (select 1 from webhook_group_settings w where w."group" = c."group" and w.is_active)
        and exists (select 1 from executions e join orders o on o.id = e.order_id
                    where o.strategy_id = ${strategyId} and e.customer_id = c.id and e.state in ('pending', 'open'))) as blocked_by_receive_once
    from customers c
    join accounts a on a.id = c.account_id
    ${conflictingExecution(terms)}
    where ${eligibleWhere(strategyId)}
    order by c.id`);
  return result.rows;
}

async function entryTermsOf(tx: DbOrTx, input: EnqueueInput): Promise<EntryTerms> {
  const found = await tx.execute<{ symbol: string; position_mode: number; trailing_stop: boolean }>(sql`select symbol, position_mode, trailing_stop from strategies where id = ${input.strategyId}`);
  const row = found.rows[0]!;
  return { symbol: row.symbol, positionMode: Number(row.position_mode), trailingStop: Boolean(row.trailing_stop), side: input.side };
}

/** One Order and one queued execution per eligible customer, inside the caller's transaction. */
export async function enqueueOrder(tx: DbOrTx, input: EnqueueInput): Promise<EnqueueResult> {
  const inserted = await tx.execute<{ id: number }>(sql`
    insert into orders (strategy_id, signal_id, side, status, entry_type, reference_price, datetime_inserted, datetime_updated)
    values (${input.strategyId}, ${input.signalId}, ${input.side}, 1, ${input.entryType}, ${input.referencePrice}, ${instantOf(input.at)}, ${instantOf(input.at)})
    returning id`);
  const orderId = Number(inserted.rows[0]!.id);
  const terms = await entryTermsOf(tx, input);
  await lockCustomerPositions(tx, input.strategyId, terms.symbol);
  const customers = await eligibleCustomers(tx, input.strategyId, input.receiveOnce, terms);
  const skipReason = (row: EligibleRow): string | null => {
    if (row.blocked_by_receive_once) {
      return `Receive Webhook Once is on for group ${customerGroupLabels[row.group as CustomerGroup] ?? row.group}: the customer already holds a position of strategy ${input.strategyId}, so this entry was skipped`;
    }
    return row.conflict_strategy && row.conflict_reason ? conflictMessage(terms, row.conflict_strategy, row.conflict_reason) : null;
  };
  const queued = customers.filter((row) => skipReason(row) === null);
  const skipped = customers.filter((row) => skipReason(row) !== null);
  const claimedIds = await queueExecutions(tx, { orderId, customers: queued.map((row) => ({ id: Number(row.id), platformType: Number(row.platform_type) })), deadlineMs: input.deadlineMs, claim: input.claim, at: input.at });
  if (skipped.length > 0) {
    await tx.insert(entryAudits).values(
      skipped.map((row) => ({ orderId, customerId: Number(row.id), strategyId: input.strategyId, entryType: input.entryType, message: skipReason(row)!, datetimeInserted: input.at })),
    );
    await publishNotification(tx, { type: NotificationType.EntryFailure, message: `${skipped.length} entries of strategy ${input.strategyId} skipped` });
  }
  if (queued.length === 0) await finishOrderIfDone(tx, orderId, input.at);
  const claimed = input.claim ? await loadContexts(tx, input.claim.worker, claimedIds) : [];
  return { orderId, executions: queued.length, skipped: skipped.length, claimed };
}
