import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { EntryDirection, OrderEntryType } from '../../../contract/enums';
import type { WebhookAnswer } from '../../../contract/api/webhook';
import { ui } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { recordEntryAudit, recordExitAudit } from '../../lib/audits';
import { requestClose } from '../../trading/execution-state/close-request';
import type { TradingConfig } from '../../trading/config';
import { lockStrategy } from '../../trading/engine';
import { enqueueOrder } from '../../trading/enqueue';
import type { ParsedAlert } from './parse';

export interface WebhookStrategy {
  id: string;
  symbol: string;
  entryDirection: EntryDirection;
  status: number;
}

/** An alert refused before anything was queued: one entry-audit row (and the staff red dot). */
export async function auditRefusedAlert(deps: Pick<Deps, 'db'>, strategyId: string, reason: string): Promise<void> {
  await recordEntryAudit(deps.db, { orderId: null, customerId: null, strategyId, entryType: OrderEntryType.Api, message: `Webhook alert refused: ${reason}` });
}

export const bodyHash = (body: string) => createHash('sha256').update(body.trim()).digest('hex');

/**
 * One transaction: the signal, and for an entry the Order with one execution per eligible customer,
 * or for a close the close requests. Serialised per strategy (advisory lock), so a repeat — same alert
 * id, or same body within the window — is recognised even when two copies race.
 */
export async function receiveAlert(
  deps: Pick<Deps, 'db' | 'clock'>,
  trading: TradingConfig,
  input: { strategy: WebhookStrategy; alert: ParsedAlert; body: string; sourceIp: string; backdated?: boolean },
): Promise<WebhookAnswer> {
  const { strategy, alert } = input;
  const now = deps.clock.now();
  // The Order and close requests are stamped by the database unless the caller replays history (demo seeding).
  const at = input.backdated ? now : undefined;
  const hash = bodyHash(input.body);
  const base = { message: ui.strategy.webhookReceived, action: alert.action, orderId: null, executions: 0, skipped: 0, closing: 0 };
  return deps.db.transaction(async (tx) => {
    await lockStrategy(tx, strategy.id);
    const repeat = await tx.execute<{ id: number }>(sql`
      select id from signals
      where strategy_id = ${strategy.id}
        and ((${alert.alertId}::text is not null and alert_id = ${alert.alertId})
          or (body_hash = ${hash} and received_at > ${new Date(now.getTime() - trading.duplicateWindowMs)}))
      order by id desc limit 1`);
    if (repeat.rows[0]) return { ...base, signalId: Number(repeat.rows[0].id), duplicate: true };

    const stale = alert.timestamp !== null && now.getTime() - alert.timestamp.getTime() > trading.maxAlertAgeMs;
    const inserted = await tx.execute<{ id: number }>(sql`
      insert into signals (strategy_id, alert_id, body_hash, body, action, source_ip, received_at, outcome)
      values (${strategy.id}, ${alert.alertId}, ${hash}, ${input.body.slice(0, 10_000)}, ${alert.action}, ${input.sourceIp}, ${now},
        ${stale ? 'stale' : null})
      returning id`);
    const signalId = Number(inserted.rows[0]!.id);

    if (alert.action === 'open') {
      if (stale) {
        await recordEntryAudit(tx, {
          orderId: null,
          customerId: null,
          strategyId: strategy.id,
          entryType: OrderEntryType.Api,
          message: `Webhook alert of ${alert.timestamp!.toISOString()} arrived more than ${Math.round(trading.maxAlertAgeMs / 1000)} s late; no order was placed`,
        });
        return { ...base, signalId, duplicate: false };
      }
      const queued = await enqueueOrder(tx, {
        strategyId: strategy.id,
        side: strategy.entryDirection,
        entryType: OrderEntryType.Api,
        signalId,
        receiveOnce: true,
        deadlineMs: trading.entryDeadlineMs,
        referencePrice: alert.price,
        at,
      });
      return { ...base, signalId, duplicate: false, orderId: queued.orderId, executions: queued.executions, skipped: queued.skipped };
    }

    const closing = await requestClose(tx, { strategyId: strategy.id }, null, at);
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
    return { ...base, signalId, duplicate: false, closing };
  });
}
