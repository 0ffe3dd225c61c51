import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import type { OrderState, PositionState, SandboxControl } from '../../server/sandbox/control';
import type { ExecutionLeg } from '../../server/trading/legs';
import type { ExchangeName } from './plan';

/**
 * What the invariant checker reads at each sample: every chaos customer's account as the sandbox holds
 * it (positions, every order) and every execution row of the database. Nothing here judges.
 */
export interface AccountSnapshot {
  /** Index of the customer in the plan. */
  customer: number;
  customerId: number;
  exchange: ExchangeName;
  uid: string;
  positions: PositionState[];
  orders: OrderState[];
  /** The account's private stream is subscribed on the sandbox (the engine holds it). */
  streamUp: boolean;
}

export interface ExecutionSnapshot {
  id: number;
  orderId: number;
  customerId: number;
  clientOrderId: string;
  state: 'pending' | 'open' | 'closed' | 'failed' | 'skipped';
  quantity: number | null;
  closedQty: number;
  entryPrice: number | null;
  legs: ExecutionLeg[];
  claimed: boolean;
  updatedAt: number;
  closeRequested: boolean;
  protected: boolean;
  side: 'long' | 'short';
  symbol: string;
}

export interface Snapshot {
  /** Wall clock (ms) when the sample was taken. */
  at: number;
  accounts: AccountSnapshot[];
  executions: ExecutionSnapshot[];
}

export interface ObservedCustomer {
  customerId: number;
  exchange: ExchangeName;
  uid: string;
}

/** Orders still able to act on a position. */
export const LIVE_STATUSES: ReadonlySet<OrderState['status']> = new Set(['new', 'untriggered', 'partially_filled']);
export const isLive = (order: OrderState) => LIVE_STATUSES.has(order.status);

export function readAccounts(control: SandboxControl, customers: readonly ObservedCustomer[]): AccountSnapshot[] {
  return customers.map((customer, index) => {
    const state = control.account(customer.uid);
    return {
      customer: index,
      customerId: customer.customerId,
      exchange: customer.exchange,
      uid: customer.uid,
      positions: state.positions.filter((position) => position.size > 0),
      orders: state.orders,
      streamUp: control.streamSubscriptions(customer.uid).length > 0,
    };
  });
}

interface ExecutionRow extends Record<string, unknown> {
  id: string;
  order_id: number;
  customer_id: number;
  client_order_id: string;
  state: ExecutionSnapshot['state'];
  quantity: string | null;
  closed_qty: string;
  entry_price: string | null;
  legs: ExecutionLeg[];
  claimed_by: string | null;
  updated_at: Date;
  close_requested_at: Date | null;
  protected_at: Date | null;
  side: number;
  symbol: string;
}

const numberOrNull = (value: string | null) => (value === null ? null : Number(value));

export async function readExecutions(db: Db): Promise<ExecutionSnapshot[]> {
  const result = await db.execute<ExecutionRow>(sql`
    select e.id, e.order_id, e.customer_id, e.client_order_id, e.state, e.quantity, e.closed_qty, e.entry_price, e.legs, e.claimed_by,
      e.updated_at, e.close_requested_at, e.protected_at, o.side, s.symbol
    from executions e join orders o on o.id = e.order_id join strategies s on s.id = o.strategy_id
    order by e.id`);
  return result.rows.map((row) => ({
    id: Number(row.id),
    orderId: Number(row.order_id),
    customerId: Number(row.customer_id),
    clientOrderId: row.client_order_id,
    state: row.state,
    quantity: numberOrNull(row.quantity),
    closedQty: Number(row.closed_qty),
    entryPrice: numberOrNull(row.entry_price),
    legs: row.legs,
    claimed: row.claimed_by !== null,
    updatedAt: new Date(row.updated_at).getTime(),
    closeRequested: row.close_requested_at !== null,
    protected: row.protected_at !== null,
    side: Number(row.side) === 1 ? 'long' : 'short',
    symbol: row.symbol,
  }));
}

/**
 * The exchange first, then the database: the engine writes an execution before it sends its entry, so
 * every entry seen on the exchange has its row in the later read. Read the other way round, an entry sent
 * between the two reads looked like one no execution owns (a false "doubled", seen in a loaded full run).
 */
export async function takeSnapshot(db: Db, control: SandboxControl, customers: readonly ObservedCustomer[]): Promise<Snapshot> {
  const at = Date.now();
  const accounts = readAccounts(control, customers);
  return { at, accounts, executions: await readExecutions(db) };
}

/** The entry audits written for each order and customer (a skipped or failed entry is audited). */
export async function readEntryAudits(db: Db): Promise<Array<{ orderId: number; customerId: number; message: string }>> {
  const result = await db.execute<{ order_id: number; customer_id: number; message: string }>(sql`
    select order_id, customer_id, message from entry_audits where order_id is not null and customer_id is not null order by id`);
  return result.rows.map((row) => ({ orderId: Number(row.order_id), customerId: Number(row.customer_id), message: row.message }));
}

/** The exit audits of some customers, oldest first ("t s order O customer C: message"), for a failing seed's report. */
export async function readExitAudits(db: Db, customerIds: readonly number[], startedAt: number): Promise<string[]> {
  if (customerIds.length === 0) return [];
  const result = await db.execute<{ order_id: number | null; customer_id: number; message: string; is_error: boolean; at: string }>(sql`
    select order_id, customer_id, message, is_error, datetime_inserted as at from exit_audits
    where customer_id in (${sql.join(customerIds.map((id) => sql`${id}`), sql`, `)}) order by id`);
  return result.rows.map((row) => {
    const at = ((new Date(row.at).getTime() - startedAt) / 1000).toFixed(1);
    return `${at}s order ${row.order_id ?? '-'} customer ${row.customer_id}${row.is_error ? ' (error)' : ''}: ${row.message}`;
  });
}
