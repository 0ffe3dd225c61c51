import { sql } from 'drizzle-orm';
import type { ExecutionContext } from '../context';
import { balanceRefusal, leverageRefusal, notionalRefusal, positionsRefusal } from '../guards';
import type { TradingRuntime } from '../runtime';
import { isFailure } from './errors';
import type { Session } from './session';

/**
 * The customer's guards (issue 29) on a sized entry: the audit text of the first one it would break, or
 * null. Checked from the cheapest: leverage and notional from the context, open positions from the
 * database, the free balance from the exchange (one read, only for a customer with that guard).
 */
export async function customerGuardRefusal(
  rt: TradingRuntime,
  ctx: ExecutionContext,
  session: Session,
  entry: { quantity: number; price: number },
  deadline: number,
): Promise<string | null> {
  const { maxLeverage, maxNotionalUsdt, maxOpenPositions, minFreeBalanceUsdt } = ctx.guards;
  if (maxLeverage !== null) {
    const refused = leverageRefusal(maxLeverage, ctx.strategy.leverage, ctx.strategy.id);
    if (refused) return refused;
  }
  if (maxNotionalUsdt !== null) {
    const refused = notionalRefusal(maxNotionalUsdt, entry.quantity, entry.price, session.symbol);
    if (refused) return refused;
  }
  if (maxOpenPositions !== null) {
    const { open, joins } = await openPositionsOf(rt, ctx, session.symbol);
    const refused = positionsRefusal(maxOpenPositions, open, joins);
    if (refused) return refused;
  }
  if (minFreeBalanceUsdt !== null) return balanceRefusal(minFreeBalanceUsdt, await freeBalance(session, deadline));
  return null;
}

/** The positions (symbol and side) the customer's other open executions hold, and whether this entry's is one of them. */
async function openPositionsOf(rt: TradingRuntime, ctx: ExecutionContext, symbol: string): Promise<{ open: number; joins: boolean }> {
  const result = await rt.db.execute<{ open: number; joins: boolean }>(sql`
    select count(distinct (s.symbol, o.side))::int as open, coalesce(bool_or(s.symbol = ${symbol} and o.side = ${ctx.side}), false) as joins
    from executions e join orders o on o.id = e.order_id join strategies s on s.id = o.strategy_id
    where e.customer_id = ${ctx.customerId} and e.state = 'open' and e.id <> ${ctx.id}`);
  const row = result.rows[0]!;
  return { open: Number(row.open), joins: Boolean(row.joins) };
}

/** The account's free USDT; null when the exchange did not answer (a read past the entry's deadline drops the entry). */
async function freeBalance(session: Session, deadline: number): Promise<number | null> {
  try {
    return (await session.adapter.fetchBalance({ ...session.credentials, deadline })).free;
  } catch (error) {
    if (isFailure(error, 'deadline')) throw error;
    return null;
  }
}
