import { and, asc, count, desc, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Strategy, StrategySettings } from '../../../contract/api/strategy';
import { OrderStatus } from '../../../contract/enums';
import type { DbOrTx } from '../../db/client';
import { accounts, customers, orders, strategies, strategyGroups } from '../../db/schema/index';
import { likePattern, offsetOf, pageOf, type PageWindow } from '../../db/paging';
import type { Secrets } from '../../lib/secrets';
import { readWebhookToken, type WebhookTokenColumns } from './webhook-token';

export function webhookUrlOf(publicUrl: string, token: string): string {
  return `${publicUrl}/api/webhook/${token}`;
}

/** How strategies are shown: admins read the webhook URL, everyone else only whether there is one. */
export interface StrategyView {
  publicUrl: string;
  secrets: Secrets;
  revealWebhook: boolean;
}

const num = (value: string | null): number | null => (value === null ? null : Number(value));

const winCount = sql<number>`(select count(*) from ${orders} where ${orders.strategyId} = ${strategies.id} and ${orders.status} = ${OrderStatus.Win})`.mapWith(Number);
const lossCount = sql<number>`(select count(*) from ${orders} where ${orders.strategyId} = ${strategies.id} and ${orders.status} = ${OrderStatus.Loss})`.mapWith(Number);

const notDeleted = isNull(strategies.deletedAt);

/** Strategies matching `where` (never deleted ones), in `order`, one page or all. */
async function loadStrategies(db: DbOrTx, view: StrategyView, where: SQL | undefined, order: SQL[], page?: PageWindow): Promise<Strategy[]> {
  const base = db
    .select({ s: strategies, win: winCount, loss: lossCount, exFirst: accounts.firstName, exLast: accounts.lastName })
    .from(strategies)
    .leftJoin(customers, eq(customers.id, strategies.exclusiveCustomerId))
    .leftJoin(accounts, eq(accounts.id, customers.accountId))
    .where(and(notDeleted, where))
    .orderBy(...order);
  const rows = page ? await base.limit(page.pageSize).offset(offsetOf(page)) : await base;
  if (rows.length === 0) return [];
  const groupRows = await db
    .select()
    .from(strategyGroups)
    .where(inArray(strategyGroups.strategyId, rows.map((r) => r.s.id)))
    .orderBy(asc(strategyGroups.group));
  return rows.map(({ s, win, loss, exFirst, exLast }) => ({
    id: s.id,
    symbol: s.symbol,
    groups: groupRows
      .filter((g) => g.strategyId === s.id)
      .map((g) => ({ group: g.group, investAmount: { type: g.investType, amount: Number(g.investAmount) } })),
    entryDirection: s.entryDirection,
    leverage: s.leverage,
    positionMode: s.positionMode,
    takeProfitType: s.takeProfitType,
    takeProfitMode: s.takeProfitMode,
    tp1: { targetLevel: Number(s.tp1TargetLevel), closeVolume: Number(s.tp1CloseVolume) },
    tp2: { targetLevel: num(s.tp2TargetLevel), closeVolume: num(s.tp2CloseVolume) ?? 0 },
    tp3: { targetLevel: num(s.tp3TargetLevel), closeVolume: num(s.tp3CloseVolume) ?? 0 },
    stopLoss: { type: s.stopLossType, amount: Number(s.stopLossAmount) },
    advanceStopLoss: s.advanceStopLoss,
    trailingStop: s.trailingStop,
    positionActivation: { type: s.activationType, amount: num(s.activationAmount) },
    positionClose: { type: s.closeType, amount: num(s.closeAmount) },
    status: s.status,
    exclusiveCustomerId: s.exclusiveCustomerId,
    exclusiveCustomer:
      s.exclusiveCustomerId !== null && exFirst !== null && exLast !== null ? { id: s.exclusiveCustomerId, firstName: exFirst, lastName: exLast } : null,
    ...webhookOf(view, s),
    win,
    loss,
    datetimeInserted: s.datetimeInserted.toISOString(),
    datetimeUpdated: s.datetimeUpdated.toISOString(),
  }));
}

function webhookOf(view: StrategyView, row: { id: string; webhookTokenHash: string | null; webhookTokenSealed: string | null; legacyWebhookToken: string | null }) {
  const hasWebhook = row.webhookTokenHash !== null;
  const token = hasWebhook && view.revealWebhook ? readWebhookToken(view.secrets, row) : null;
  return { hasWebhook, webhookUrl: token === null ? null : webhookUrlOf(view.publicUrl, token) };
}

export async function getStrategy(db: DbOrTx, view: StrategyView, id: string): Promise<Strategy | undefined> {
  const [row] = await loadStrategies(db, view, eq(strategies.id, id), []);
  return row;
}

export interface StrategyQuery {
  id?: string | undefined;
  symbol?: string | undefined;
  /** Only strategies that trade for this group. */
  group?: number | undefined;
  /** Only strategies whose exclusive customer is this one. */
  customerId?: number | undefined;
}

function conditions(query: StrategyQuery): SQL | undefined {
  const parts: SQL[] = [];
  if (query.id) parts.push(ilike(strategies.id, likePattern(query.id)));
  if (query.symbol) parts.push(ilike(strategies.symbol, likePattern(query.symbol)));
  if (query.group !== undefined) {
    parts.push(sql`exists (select 1 from ${strategyGroups} where ${strategyGroups.strategyId} = ${strategies.id} and ${strategyGroups.group} = ${query.group})`);
  }
  if (query.customerId !== undefined) parts.push(eq(strategies.exclusiveCustomerId, query.customerId));
  return parts.length > 0 ? and(...parts) : undefined;
}

export async function searchStrategies(db: DbOrTx, view: StrategyView, query: StrategyQuery, page: PageWindow, order: SQL[]) {
  const where = conditions(query);
  const [rows, [total]] = await Promise.all([
    loadStrategies(db, view, where, order, page),
    db.select({ n: count() }).from(strategies).where(and(notDeleted, where)),
  ]);
  return pageOf(rows, total?.n ?? 0, page);
}

export const newestFirst = [desc(strategies.datetimeInserted), asc(strategies.id)];
export const bySymbol = (descending: boolean) => [descending ? desc(strategies.symbol) : asc(strategies.symbol), asc(strategies.id)];

/** Whether the id is taken, by a live or a deleted strategy. */
export async function strategyIdTaken(db: DbOrTx, id: string): Promise<{ deleted: boolean } | undefined> {
  const [row] = await db.select({ deletedAt: strategies.deletedAt }).from(strategies).where(eq(strategies.id, id));
  return row ? { deleted: row.deletedAt !== null } : undefined;
}

export async function liveStrategyExists(db: DbOrTx, id: string): Promise<boolean> {
  const [row] = await db.select({ id: strategies.id }).from(strategies).where(and(eq(strategies.id, id), notDeleted)).for('update');
  return row !== undefined;
}

const dec = (value: number | null) => (value === null ? null : String(value));

export async function insertStrategy(db: DbOrTx, settings: StrategySettings, webhook: WebhookTokenColumns, now: Date): Promise<void> {
  await db.insert(strategies).values({
    id: settings.id,
    symbol: settings.symbol,
    entryDirection: settings.entryDirection,
    leverage: settings.leverage,
    positionMode: settings.positionMode,
    takeProfitType: settings.takeProfitType,
    takeProfitMode: settings.takeProfitMode,
    tp1TargetLevel: String(settings.tp1.targetLevel),
    tp1CloseVolume: String(settings.tp1.closeVolume),
    tp2TargetLevel: dec(settings.tp2.targetLevel),
    tp2CloseVolume: String(settings.tp2.closeVolume),
    tp3TargetLevel: dec(settings.tp3.targetLevel),
    tp3CloseVolume: String(settings.tp3.closeVolume),
    stopLossType: settings.stopLoss.type,
    stopLossAmount: String(settings.stopLoss.amount),
    advanceStopLoss: settings.advanceStopLoss,
    trailingStop: settings.trailingStop,
    activationType: settings.positionActivation.type,
    activationAmount: dec(settings.positionActivation.amount),
    closeType: settings.positionClose.type,
    closeAmount: dec(settings.positionClose.amount),
    exclusiveCustomerId: settings.exclusiveCustomerId,
    ...webhook,
    datetimeInserted: now,
    datetimeUpdated: now,
  });
  await replaceGroups(db, settings.id, settings.groups);
}

export async function replaceGroups(db: DbOrTx, strategyId: string, groups: StrategySettings['groups']): Promise<void> {
  await db.delete(strategyGroups).where(eq(strategyGroups.strategyId, strategyId));
  if (groups.length === 0) return;
  await db.insert(strategyGroups).values(
    groups.map((g) => ({ strategyId, group: g.group, investType: g.investAmount.type, investAmount: String(g.investAmount.amount) })),
  );
}

export async function hasOpenOrder(db: DbOrTx, strategyId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.strategyId, strategyId), eq(orders.status, OrderStatus.Active)))
    .limit(1);
  return row !== undefined;
}
