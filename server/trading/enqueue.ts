import { sql } from 'drizzle-orm';
import { AccountStatus, CustomerGroup, EntryDirection, OrderEntryType, customerGroupLabels } from '../../contract/enums';
import type { DbOrTx } from '../db/client';
import { entryAudits } from '../db/schema/index';
import { publishNotification } from '../lib/notify';
import { NotificationType } from '../../contract/enums';
import { queueExecutions } from './execution-state/create';
import { finishOrderIfDone } from './execution-state/order-settlement';

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
}

export interface EnqueueResult {
  orderId: number;
  executions: number;
  skipped: number;
}

interface EligibleRow extends Record<string, unknown> {
  id: number;
  group: number;
  blocked_by_receive_once: boolean;
}

/**
 * ARCHITECTURE 6 "eligible": account Active, exchange connected with credentials, group among the
 * strategy's groups; Exclusive only for the strategy's exclusive customer while Internal is chosen.
 * `blocked_by_receive_once`: the group has Receive Webhook Once on and the customer already holds a
 * position (or a pending entry) of this strategy.
 */
async function eligibleCustomers(tx: DbOrTx, strategyId: string, receiveOnce: boolean): Promise<EligibleRow[]> {
  const result = await tx.execute<EligibleRow>(sql`
    with sg as (select "group" from strategy_groups where strategy_id = ${strategyId})
    select c.id, c."group",
      (${receiveOnce} and exists (select 1 from webhook_group_settings w where w."group" = c."group" and w.is_active)
        and exists (select 1 from executions e join orders o on o.id = e.order_id
                    where o.strategy_id = ${strategyId} and e.customer_id = c.id and e.state in ('pending', 'open'))) as blocked_by_receive_once
    from customers c
    join accounts a on a.id = c.account_id
    where a.status = ${AccountStatus.Active} and a.deleted_at is null
      and c.platform_type in (1, 2) and c.api_key_enc is not null and c.api_secret_enc is not null
      and (
        (c."group" <> ${CustomerGroup.Exclusive} and c."group" in (select "group" from sg))
        or (c."group" = ${CustomerGroup.Exclusive}
            and c.id = (select exclusive_customer_id from strategies where id = ${strategyId})
            and exists (select 1 from sg where "group" = ${CustomerGroup.Exclusive})
            and exists (select 1 from sg where "group" = ${CustomerGroup.Internal}))
      )
    order by c.id`);
  return result.rows;
}

/** One Order and one queued execution per eligible customer, inside the caller's transaction. */
export async function enqueueOrder(tx: DbOrTx, input: EnqueueInput): Promise<EnqueueResult> {
  const inserted = await tx.execute<{ id: number }>(sql`
    insert into orders (strategy_id, signal_id, side, status, entry_type, reference_price)
    values (${input.strategyId}, ${input.signalId}, ${input.side}, 1, ${input.entryType}, ${input.referencePrice}) returning id`);
  const orderId = Number(inserted.rows[0]!.id);
  const customers = await eligibleCustomers(tx, input.strategyId, input.receiveOnce);
  const queued = customers.filter((row) => !row.blocked_by_receive_once);
  const skipped = customers.filter((row) => row.blocked_by_receive_once);
  await queueExecutions(tx, { orderId, customerIds: queued.map((row) => Number(row.id)), deadlineMs: input.deadlineMs });
  if (skipped.length > 0) {
    await tx.insert(entryAudits).values(
      skipped.map((row) => ({
        orderId,
        customerId: Number(row.id),
        strategyId: input.strategyId,
        entryType: input.entryType,
        message: `Receive Webhook Once is on for group ${customerGroupLabels[row.group as CustomerGroup] ?? row.group}: the customer already holds a position of strategy ${input.strategyId}, so this entry was skipped`,
      })),
    );
    await publishNotification(tx, { type: NotificationType.EntryFailure, message: `${skipped.length} entries of strategy ${input.strategyId} skipped by Receive Webhook Once` });
  }
  if (queued.length === 0) await finishOrderIfDone(tx, orderId);
  return { orderId, executions: queued.length, skipped: skipped.length };
}
