import { and, eq, isNull } from 'drizzle-orm';
import type { Strategy, StrategySettings, StrategyUpdate } from '../../../contract/api/strategy';
import { CustomerGroup, StrategyStatus, exchangeLabels, ENABLED_EXCHANGES, type EntryDirection } from '../../../contract/enums';
import { server as messages, validation } from '../../../contract/messages';
import type { DbOrTx } from '../../db/client';
import type { Deps } from '../../deps';
import { accounts, customers, strategies } from '../../db/schema/index';
import { badRequest, conflict, notFound } from '../../http/errors';
import { logStaffAction } from '../../lib/staff-log';
import { isUniqueViolation } from '../accounts/repository';
import {
  getStrategy,
  hasOpenOrder,
  insertStrategy,
  liveStrategyExists,
  replaceGroups,
  strategyIdTaken,
  webhookUrlOf,
  type StrategyView,
} from './repository';
import { newWebhookToken, noWebhookColumns } from './webhook-token';
import type { SymbolCheck } from './symbols';
import { openManualOrder } from '../../trading/intake';

const strategyNotFound = () => notFound(messages.notFound('Strategy'));

/** The exclusive customer must be a live customer of the Exclusive group. */
async function checkExclusiveCustomer(db: DbOrTx, customerId: number | null): Promise<void> {
  if (customerId === null) return;
  const [row] = await db
    .select({ group: customers.group })
    .from(customers)
    .innerJoin(accounts, eq(accounts.id, customers.accountId))
    .where(and(eq(customers.id, customerId), isNull(accounts.deletedAt)));
  if (!row) throw badRequest(`Customer ${customerId} does not exist`);
  if (row.group !== CustomerGroup.Exclusive) throw badRequest('The exclusive customer must be a customer of the Exclusive group');
}

export async function createStrategy(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'secrets'>,
  symbolExists: SymbolCheck,
  settings: StrategySettings,
  actorAccountId: number,
): Promise<{ id: string; webhookUrl: string }> {
  const taken = await strategyIdTaken(deps.db, settings.id);
  if (taken) throw conflict(strategyIdTakenMessage(settings.id, taken.deleted));
  if (!(await symbolExists(settings.symbol))) {
    const names = ENABLED_EXCHANGES.map((e) => exchangeLabels[e]).join(' or ');
    throw badRequest(`Symbol/Token ${settings.symbol} is not traded on ${names}; use a USDT perpetual such as BTCUSDT`);
  }
  await checkExclusiveCustomer(deps.db, settings.exclusiveCustomerId);
  const { token, columns } = newWebhookToken(deps.secrets, settings.id);
  try {
    await deps.db.transaction(async (tx) => {
      await insertStrategy(tx, settings, columns, deps.clock.now());
      await logStaffAction(tx, {
        actorAccountId,
        action: 'create',
        targetType: 'strategy',
        targetId: settings.id,
        details: { symbol: settings.symbol, groups: settings.groups.map((g) => g.group) },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(strategyIdTakenMessage(settings.id, false));
    throw error;
  }
  return { id: settings.id, webhookUrl: webhookUrlOf(deps.config.publicUrl, token) };
}

async function currentExclusiveCustomer(db: DbOrTx, id: string): Promise<number | null> {
  const [row] = await db.select({ customerId: strategies.exclusiveCustomerId }).from(strategies).where(eq(strategies.id, id));
  return row?.customerId ?? null;
}

function strategyIdTakenMessage(id: string, deleted: boolean): string {
  return deleted
    ? `Strategy ID ${id} belonged to a deleted strategy and cannot be used again; choose another Strategy ID`
    : `Strategy ID ${id} is already taken; choose another Strategy ID`;
}

export async function updateStrategy(deps: Pick<Deps, 'db' | 'clock'>, view: StrategyView, id: string, update: StrategyUpdate, actorAccountId: number): Promise<Strategy> {
  await deps.db.transaction(async (tx) => {
    if (!(await liveStrategyExists(tx, id))) throw strategyNotFound();
    const exclusiveCustomerId = update.exclusiveCustomerId === undefined ? await currentExclusiveCustomer(tx, id) : update.exclusiveCustomerId;
    if (exclusiveCustomerId === null && update.groups.some((g) => g.group === CustomerGroup.Exclusive)) throw badRequest(`exclusiveCustomerId: ${validation.selectOption}`);
    await checkExclusiveCustomer(tx, exclusiveCustomerId);
    await tx
      .update(strategies)
      .set({
        stopLossType: update.stopLoss.type,
        stopLossAmount: String(update.stopLoss.amount),
        exclusiveCustomerId,
        datetimeUpdated: deps.clock.now(),
      })
      .where(eq(strategies.id, id));
    await replaceGroups(tx, id, update.groups);
    await logStaffAction(tx, {
      actorAccountId,
      action: 'update',
      targetType: 'strategy',
      targetId: id,
      details: { groups: update.groups, stopLoss: update.stopLoss, exclusiveCustomerId },
    });
  });
  const strategy = await getStrategy(deps.db, view, id);
  if (!strategy) throw strategyNotFound();
  return strategy;
}

/** Soft delete: orders and earnings keep their strategy; the webhook token is dropped so the URL dies. */
export async function deleteStrategy(deps: Pick<Deps, 'db' | 'clock' | 'intake'>, id: string, actorAccountId: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await liveStrategyExists(tx, id))) throw strategyNotFound();
    if (await hasOpenOrder(tx, id)) {
      throw conflict('This strategy has an open order. Close the order (Order & Alert) before deleting the strategy.');
    }
    const now = deps.clock.now();
    await tx
      .update(strategies)
      .set({ deletedAt: now, status: StrategyStatus.Inactive, ...noWebhookColumns, datetimeUpdated: now })
      .where(eq(strategies.id, id));
    await logStaffAction(tx, { actorAccountId, action: 'delete', targetType: 'strategy', targetId: id });
  });
  deps.intake.strategies.changed();
}

export async function rotateWebhookToken(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'secrets' | 'intake'>, id: string, actorAccountId: number): Promise<{ id: string; webhookUrl: string }> {
  const { token, columns } = newWebhookToken(deps.secrets, id);
  await deps.db.transaction(async (tx) => {
    if (!(await liveStrategyExists(tx, id))) throw strategyNotFound();
    await tx.update(strategies).set({ ...columns, datetimeUpdated: deps.clock.now() }).where(eq(strategies.id, id));
    await logStaffAction(tx, { actorAccountId, action: 'rotateWebhook', targetType: 'strategy', targetId: id });
  });
  deps.intake.strategies.changed();
  return { id, webhookUrl: webhookUrlOf(deps.config.publicUrl, token) };
}

/** Open Long / Open Short: the engine places one manual market Order for every eligible customer. */
export async function openManual(deps: Pick<Deps, 'db' | 'clock' | 'config' | 'intake'>, id: string, side: EntryDirection, actorAccountId: number) {
  const [live] = await deps.db.select({ id: strategies.id }).from(strategies).where(and(eq(strategies.id, id), isNull(strategies.deletedAt)));
  if (!live) throw strategyNotFound();
  const result = await openManualOrder(deps, { strategyId: id, side });
  await logStaffAction(deps.db, {
    actorAccountId,
    action: 'manualOrder',
    targetType: 'order',
    targetId: result.orderId,
    details: { strategyId: id, side, executions: result.executions, skipped: result.skipped },
  });
  return { orderId: result.orderId, strategyId: id, side, executions: result.executions, skipped: result.skipped };
}
