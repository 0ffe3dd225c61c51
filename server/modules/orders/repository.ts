import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { CloseProgress, CustomerExecution, Order } from '../../../contract/api/order';
import type { FilterItem } from '../../../contract/common';
import { OrderStatus } from '../../../contract/enums';
import type { Paged } from '../../../contract/envelope';
import type { DbOrTx } from '../../db/client';
import { addedSince, countColumns, currentSnapshot, insertOnlyCount, type CountAtSnapshot } from '../../db/insert-only-count';
import { inOrderOf, preparedPerHandle } from '../../db/prepared';
import { settledAnswer, settledVersionOf } from '../../db/settled-answers';
import { executions, orders, strategies } from '../../db/schema/index';
import { filterValue, offsetOf, pageOf, type PageWindow } from '../../db/paging';
import { idCondition, monthCondition, symbolCondition } from './filters';

const orderColumns = {
  id: orders.id,
  strategyId: strategies.id,
  symbol: strategies.symbol,
  status: orders.status,
  entryType: orders.entryType,
  side: orders.side,
  realizedPnl: orders.realizedPnl,
  datetimeInserted: orders.datetimeInserted,
  datetimeUpdated: orders.datetimeUpdated,
  closing: sql<boolean>`exists (select 1 from ${executions} e where e.order_id = ${orders.id} and e.state in ('pending', 'open') and e.close_requested_at is not null)`.mapWith(Boolean),
  closeProgress: closeProgressOf(),
};

/**
 * The close's progress, once one was asked for: by an admin or a customer (exit type kept even when
 * the engine gives a close up) or by a signal (close_requested_at). Counted over the executions that
 * held a position.
 */
function closeProgressOf() {
  return sql<CloseProgress | null>`case when exists (
      select 1 from ${executions} e where e.order_id = ${orders.id} and (e.close_requested_at is not null or e.exit_type is not null))
    then (select json_build_object(
        'total', count(*) filter (where e.state in ('open', 'closed')),
        'closed', count(*) filter (where e.state = 'closed'),
        'open', count(*) filter (where e.state = 'open'))
      from ${executions} e where e.order_id = ${orders.id})
    end`;
}

type OrderRow = { [K in Exclude<keyof typeof orderColumns, 'closing' | 'closeProgress'>]: (typeof orderColumns)[K]['_']['data'] } & {
  closing: boolean;
  closeProgress: CloseProgress | null;
};

function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    strategy: { id: row.strategyId, symbol: row.symbol },
    status: row.status,
    entryType: row.entryType,
    side: row.side,
    realizedPnl: Number(row.realizedPnl),
    closing: row.closing,
    closeProgress: row.closeProgress,
    datetimeInserted: row.datetimeInserted.toISOString(),
    datetimeUpdated: row.datetimeUpdated.toISOString(),
  };
}

export function orderConditions(filter: FilterItem[]): SQL | undefined {
  return and(idCondition(filter, 'id', orders.id), monthCondition(filter, orders.datetimeInserted), symbolCondition(filter));
}

/** Orders, joined to their strategy only when a symbol filter reads it. */
function fromOrders<Fields extends SelectedFields>(db: DbOrTx, fields: Fields, filter: FilterItem[]) {
  const query = db.select(fields).from(orders).$dynamic();
  return filterValue(filter, 'strategy.symbol') === undefined ? query : query.innerJoin(strategies, eq(strategies.id, orders.strategyId));
}

export function orderCountQuery(db: DbOrTx, filter: FilterItem[], where: SQL | undefined) {
  return fromOrders(db, { n: count(), snapshot: currentSnapshot }, filter).where(where);
}

/** The ids of one page, newest first (exported for EXPLAIN checks), with what its count needs. */
export function orderPageQuery(db: DbOrTx, filter: FilterItem[], page: PageWindow, known?: CountAtSnapshot) {
  const where = orderConditions(filter);
  const added = known ? fromOrders(db, { n: count() }, filter).where(and(where, addedSince(orders.insertedBy, known.snapshot))) : undefined;
  return fromOrders(db, { id: orders.id, ...countColumns(added) }, filter)
    .where(where)
    .orderBy(desc(orders.datetimeInserted), desc(orders.id))
    .limit(page.pageSize)
    .offset(offsetOf(page));
}

/** The rows of the orders named by the `ids` placeholder (exported for EXPLAIN checks). */
export function orderRowsQuery(db: DbOrTx) {
  return db
    .select(orderColumns)
    .from(orders)
    .innerJoin(strategies, eq(strategies.id, orders.strategyId))
    .where(sql`${orders.id} = any(${sql.placeholder('ids')}::int[])`);
}

/** One query shape, prepared once per connection. */
const orderRows = preparedPerHandle((db) => orderRowsQuery(db).prepare('order_search_rows'));

/** The order search: the page's ids on orders alone, then their rows; the count kept exact (server/db/insert-only-count.ts). */
export function searchOrders(db: DbOrTx, filter: FilterItem[], page: PageWindow): Promise<Paged<Order>> {
  const key = JSON.stringify([filter, page.pageIndex, page.pageSize]);
  return settledAnswer(db, 'order-answers', key, settledOrderListVersion, () => readOrderPage(db, filter, page));
}

/** Whole answers are reused while no order, execution or strategy has changed (migration activity_list_changes). */
const settledOrderListVersion = settledVersionOf('order_list_settled_version');

async function readOrderPage(db: DbOrTx, filter: FilterItem[], page: PageWindow): Promise<Paged<Order>> {
  const where = orderConditions(filter);
  const total = insertOnlyCount(db, 'orders', JSON.stringify(filter), async () => (await orderCountQuery(db, filter, where))[0]!);
  const pageRows = await orderPageQuery(db, filter, page, total.known);
  const ids = pageRows.map((row) => row.id);
  const [rows, totalCount] = await Promise.all([ids.length ? orderRows(db).execute({ ids }) : [], total.resolve(pageRows)]);
  return pageOf(inOrderOf(ids, rows, (row) => row.id, toOrder), totalCount, page);
}

export async function getOrder(db: DbOrTx, id: number): Promise<Order | undefined> {
  const [row] = await db.select(orderColumns).from(orders).innerJoin(strategies, eq(strategies.id, orders.strategyId)).where(eq(orders.id, id));
  return row ? toOrder(row) : undefined;
}

export async function orderStatistics(db: DbOrTx): Promise<{ win: number; loss: number; totalDeal: number }> {
  const [row] = await db
    .select({
      win: sql<number>`count(*) filter (where ${orders.status} = ${OrderStatus.Win})`.mapWith(Number),
      loss: sql<number>`count(*) filter (where ${orders.status} = ${OrderStatus.Loss})`.mapWith(Number),
      totalDeal: count(),
    })
    .from(orders);
  return { win: row?.win ?? 0, loss: row?.loss ?? 0, totalDeal: row?.totalDeal ?? 0 };
}

export async function orderSymbols(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .selectDistinct({ symbol: strategies.symbol })
    .from(orders)
    .innerJoin(strategies, eq(strategies.id, orders.strategyId))
    .orderBy(asc(strategies.symbol));
  return rows.map((r) => r.symbol);
}

export async function transactionIds(db: DbOrTx): Promise<number[]> {
  const rows = await db.select({ id: orders.id }).from(orders).orderBy(desc(orders.id));
  return rows.map((r) => r.id);
}

/** One customer's executions, joined to their order and strategy. */
export async function searchCustomerExecutions(db: DbOrTx, customerId: number, filter: FilterItem[], page: PageWindow) {
  const where = and(
    eq(executions.customerId, customerId),
    idCondition(filter, 'id', orders.id),
    monthCondition(filter, executions.createdAt),
    symbolCondition(filter),
  );
  const from = () =>
    db
      .select({
        id: executions.id,
        orderId: orders.id,
        strategyId: strategies.id,
        symbol: strategies.symbol,
        side: orders.side,
        entryType: orders.entryType,
        status: orders.status,
        state: executions.state,
        quantity: executions.quantity,
        entryPrice: executions.entryPrice,
        realizedPnl: executions.realizedPnl,
        createdAt: executions.createdAt,
        updatedAt: executions.updatedAt,
      })
      .from(executions)
      .innerJoin(orders, eq(orders.id, executions.orderId))
      .innerJoin(strategies, eq(strategies.id, orders.strategyId))
      .where(where);
  const [rows, [total]] = await Promise.all([
    from().orderBy(desc(executions.createdAt), desc(executions.id)).limit(page.pageSize).offset(offsetOf(page)),
    db
      .select({ n: count() })
      .from(executions)
      .innerJoin(orders, eq(orders.id, executions.orderId))
      .innerJoin(strategies, eq(strategies.id, orders.strategyId))
      .where(where),
  ]);
  const data: CustomerExecution[] = rows.map((r) => ({
    id: r.id,
    orderId: r.orderId,
    strategy: { id: r.strategyId, symbol: r.symbol },
    side: r.side,
    entryType: r.entryType,
    status: r.status,
    state: r.state,
    quantity: r.quantity === null ? null : Number(r.quantity),
    entryPrice: r.entryPrice === null ? null : Number(r.entryPrice),
    realizedPnl: Number(r.realizedPnl),
    datetimeInserted: r.createdAt.toISOString(),
    datetimeUpdated: r.updatedAt.toISOString(),
  }));
  return pageOf(data, total?.n ?? 0, page);
}
