import { sql } from 'drizzle-orm';
import type { CustomerResults } from '../../../contract/api/results';
import type { DbOrTx } from '../../db/client';

/** The days of the customer's closes: realized PnL (net) per UTC day, its running total, and the wallet that implies. */
async function resultDays(db: DbOrTx, customerId: number): Promise<CustomerResults['days']> {
  const result = await db.execute<{ day: Date | string; pnl: string; cumulative: string; wallet: string }>(sql`
    with daily as (
      select date_trunc('day', e.closed_at at time zone 'UTC') as day, sum(e.realized_pnl) pnl
      from executions e where e.customer_id = ${customerId} and e.state = 'closed' and e.closed_at is not null group by 1),
    running as (select day, pnl, sum(pnl) over (order by day) cumulative, sum(pnl) over () total from daily)
    select r.day, r.pnl, r.cumulative, c.current_wallet_amount - r.total + r.cumulative wallet
    from running r cross join customers c where c.id = ${customerId} order by r.day`);
  const round2 = (value: string) => Number(Number(value).toFixed(2));
  return result.rows.map((row) => ({ day: new Date(row.day).toISOString().slice(0, 10), realizedPnl: round2(row.pnl), cumulative: round2(row.cumulative), wallet: round2(row.wallet) }));
}

/** The open leg of each kind in the execution's legs (executions.legs): the latest round that is still open. */
interface Leg {
  kind: string;
  price: number;
  status: string;
  round: number;
}
const openOf = (legs: Leg[], kind: string) => legs.filter((leg) => leg.kind === kind && leg.status === 'open').sort((a, b) => b.round - a.round)[0];

async function openPositions(db: DbOrTx, customerId: number): Promise<CustomerResults['openPositions']> {
  const result = await db.execute<{ id: number; order_id: number; strategy_id: string; symbol: string; side: number; left: string; entry_price: string | null; stop_loss_price: string | null; legs: Leg[] | null; created_at: Date | string }>(sql`
    select e.id, e.order_id, o.strategy_id, s.symbol, o.side, e.quantity - e.closed_qty "left", e.entry_price, e.stop_loss_price, e.legs, e.created_at
    from executions e join orders o on o.id = e.order_id join strategies s on s.id = o.strategy_id
    where e.customer_id = ${customerId} and e.state = 'open' and e.entry_price is not null
    order by e.created_at desc, e.id`);
  return result.rows.map((row) => {
    const legs = row.legs ?? [];
    const stop = openOf(legs, 'sl')?.price ?? (row.stop_loss_price === null ? null : Number(row.stop_loss_price));
    return {
      executionId: Number(row.id),
      orderId: Number(row.order_id),
      strategyId: row.strategy_id,
      symbol: row.symbol,
      side: Number(row.side),
      quantity: Number(row.left),
      entryPrice: row.entry_price === null ? null : Number(row.entry_price),
      stopLoss: stop,
      takeProfits: ['tp1', 'tp2', 'tp3'].flatMap((kind) => {
        const leg = openOf(legs, kind);
        return leg ? [leg.price] : [];
      }),
      openedAt: new Date(row.created_at).toISOString(),
    };
  });
}

export async function customerResults(db: DbOrTx, customerId: number): Promise<CustomerResults> {
  const [days, positions] = await Promise.all([resultDays(db, customerId), openPositions(db, customerId)]);
  return { days, openPositions: positions };
}
