import { sql } from 'drizzle-orm';
import type { ExitType } from '../../../contract/enums';
import type { ExecutionContext } from '../context';
import { markClosed } from '../execution-state/position';
import { applyDailyLossGuard } from '../loss-guards';
import { withRealizedPnl } from '../exit-messages';
import { partOf, positionCosts, type PositionCosts } from '../position-costs';
import type { TradingRuntime } from '../runtime';
import { loadSlotSiblings } from '../slot';
import type { Session } from './session';

/** Records are read this much either side of the execution's life: the exchange's clock is not ours. */
const CLOCK_MARGIN_MS = 60_000;

const round8 = (value: number) => Number(value.toFixed(8));

async function entryOrderId(rt: TradingRuntime, ctx: ExecutionContext): Promise<string | null> {
  const result = await rt.db.execute<{ exchange_order_id: string | null }>(sql`select exchange_order_id from executions where id = ${ctx.id}`);
  return result.rows[0]?.exchange_order_id ?? null;
}

/** This execution's part of a position it shares: by quantity with the other executions on it, else with what the records opened. */
async function shareOf(rt: TradingRuntime, ctx: ExecutionContext, openedInRecords: number): Promise<number> {
  const own = ctx.quantity ?? 0;
  const siblings = await loadSlotSiblings(rt.db, ctx);
  const total = siblings.length > 0 ? own + siblings.reduce((sum, sibling) => sum + sibling.remaining, 0) : Math.max(openedInRecords, own);
  return total > 0 ? own / total : 1;
}

/**
 * LIVE-FIDELITY D12: the fees and funding the exchange's own records show for this execution's position, taken
 * off its realized PnL. Null (the PnL left before them) when the records cannot be read or do not show the entry.
 */
async function deductCosts(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<PositionCosts | null> {
  const since = ctx.deadlineAt.getTime() - ctx.entryWindowMs - CLOCK_MARGIN_MS;
  try {
    const records = await session.adapter.costRecords(session.credentials, session.symbol, since, Date.now() + CLOCK_MARGIN_MS);
    const recorded = positionCosts(records, session.side, { exchangeOrderId: await entryOrderId(rt, ctx), clientOrderId: ctx.clientOrderId });
    if (!recorded) return null;
    const costs = recorded.flat ? recorded : partOf(recorded, await shareOf(rt, ctx, recorded.opened));
    ctx.realizedPnl = round8(ctx.realizedPnl - costs.fees - costs.funding);
    return costs;
  } catch (error) {
    rt.log.warn({ executionId: ctx.id, reason: error instanceof Error ? error.message : String(error) }, 'fees and funding of a closed position could not be read');
    return null;
  }
}

/**
 * Closes the execution with its last exit audit: how it ended, and its realized PnL net of fees and funding;
 * then the customer's daily loss guard weighs the day's losses (a failure there is logged, the close stands).
 */
export async function closeBooked(rt: TradingRuntime, ctx: ExecutionContext, session: Session, exit: { exitType: ExitType | null; how: string }): Promise<void> {
  const costs = await deductCosts(rt, ctx, session);
  await markClosed(rt, ctx, { exitType: exit.exitType, message: withRealizedPnl(exit.how, ctx.realizedPnl, costs) });
  await applyDailyLossGuard(rt.db, ctx.customerId, new Date()).catch((error: unknown) => {
    rt.log.warn({ customerId: ctx.customerId, reason: error instanceof Error ? error.message : String(error) }, 'daily loss guard not checked');
  });
}
