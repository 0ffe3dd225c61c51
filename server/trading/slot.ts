import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import type { ExecutionContext } from './context';
import type { ExecutionLeg } from './legs';

/** Another filled execution of the same customer on the same exchange position (symbol and side). */
export interface SlotSibling {
  id: number;
  remaining: number;
  legs: ExecutionLeg[];
}

/**
 * The other open executions sharing this execution's position on the exchange. Each owns its own sized
 * legs; the position's size is the sum of what is left of all of them.
 */
export async function loadSlotSiblings(db: DbOrTx, ctx: ExecutionContext): Promise<SlotSibling[]> {
  const result = await db.execute<{ id: number; quantity: string; closed_qty: string; legs: ExecutionLeg[] | null }>(sql`
    select e.id, e.quantity, e.closed_qty, e.legs
    from executions e
    join orders o on o.id = e.order_id
    join strategies s on s.id = o.strategy_id
    where e.customer_id = ${ctx.customerId} and e.id <> ${ctx.id} and e.state = 'open' and e.entry_price is not null
      and s.symbol = ${ctx.strategy.symbol} and o.side = ${ctx.side}
    order by e.id`);
  return result.rows.map((row) => ({ id: Number(row.id), remaining: Number((Number(row.quantity) - Number(row.closed_qty)).toFixed(8)), legs: row.legs ?? [] }));
}

/** Whether another live execution of this customer (entering, or holding) is on the same exchange position. */
export async function slotShared(db: DbOrTx, ctx: ExecutionContext): Promise<boolean> {
  const result = await db.execute(sql`
    select 1 from executions e
    join orders o on o.id = e.order_id
    join strategies s on s.id = o.strategy_id
    where e.customer_id = ${ctx.customerId} and e.id <> ${ctx.id} and e.state in ('pending', 'open')
      and s.symbol = ${ctx.strategy.symbol} and o.side = ${ctx.side}
    limit 1`);
  return result.rows.length > 0;
}

/** Siblings still protected by a stop covering the whole position (Bitget's entry preset): it must become theirs alone. */
export const siblingsWithWholeStop = (siblings: SlotSibling[]): number[] =>
  siblings.filter((sibling) => sibling.legs.some((leg) => leg.attached && leg.status === 'open' && leg.kind === 'sl' && leg.quantity === 0)).map((sibling) => sibling.id);

/** Exchange ids of attached legs other executions of the position already own. */
export function takenAttachedIds(siblings: SlotSibling[]): Set<string> {
  return new Set(siblings.flatMap((sibling) => sibling.legs.flatMap((leg) => (leg.attached && leg.exchangeOrderId ? [leg.exchangeOrderId] : []))));
}

/**
 * The strategy of another open execution of this customer on the symbol, either side: leverage is the
 * symbol's, so changing it would move that position's liquidation price (LIVE-FIDELITY D5). Null when none.
 */
export async function symbolHolder(db: DbOrTx, ctx: ExecutionContext): Promise<string | null> {
  const result = await db.execute<{ strategy_id: string }>(sql`
    select o.strategy_id from executions e
    join orders o on o.id = e.order_id
    join strategies s on s.id = o.strategy_id
    where e.customer_id = ${ctx.customerId} and e.id <> ${ctx.id} and e.state = 'open' and s.symbol = ${ctx.strategy.symbol}
    order by e.id
    limit 1`);
  return result.rows[0]?.strategy_id ?? null;
}
