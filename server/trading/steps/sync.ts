import { ExitType } from '../../../contract/enums';
import type { ExecutionContext } from '../context';
import { markClosed, markLegsFilled, saveProgress } from '../execution-state/position';
import type { TradingRuntime } from '../runtime';
import { roundDownToStep } from '../sizing';
import { cancelOpenLegs, refreshLegs, type LegFill } from './legs-state';
import { placeTakeProfitLegs } from './protect';
import { pnlOf, type Session } from './session';

const legLabel: Record<string, string> = { tp1: 'TP1', tp2: 'TP2', tp3: 'TP3', trailing: 'Trailing stop' };

/**
 * What the exchange closed outside our legs (stop loss, or the customer by hand). Priced at the
 * current market price, which the sync sees moments later: an estimate, said so in the audit.
 */
async function bookUnexplained(rt: TradingRuntime, ctx: ExecutionContext, session: Session, quantity: number): Promise<{ exitType: ExitType | null; message: string }> {
  const price = await rt.prices.price(session.exchange, session.symbol, 0).catch(() => ctx.lastMarkPrice ?? ctx.entryPrice!);
  ctx.realizedPnl = Number((ctx.realizedPnl + pnlOf(session.side, ctx.entryPrice!, price, quantity)).toFixed(8));
  ctx.closedQty = Number((ctx.closedQty + quantity).toFixed(8));
  const stop = ctx.stopLossPrice;
  const stopHit = stop !== null && (session.side === 'long' ? price <= stop * 1.002 : price >= stop * 0.998);
  if (stopHit) return { exitType: null, message: `Stop loss at ${stop} closed ${quantity} ${session.symbol} (about ${price})` };
  const trailing = ctx.legs.find((leg) => leg.kind === 'trailing' && leg.status === 'open');
  const inProfit = session.side === 'long' ? price > ctx.entryPrice! : price < ctx.entryPrice!;
  if (trailing && inProfit) {
    trailing.status = 'filled';
    return { exitType: null, message: `Trailing stop (activation ${trailing.price}) closed ${quantity} ${session.symbol} (about ${price})` };
  }
  return { exitType: ExitType.Customer, message: `${quantity} ${session.symbol} was closed on the exchange outside the platform (by the customer), at about ${price}` };
}

/** Resizes the open TP legs so that together they never exceed what is left of the position. */
async function resizeLegs(ctx: ExecutionContext, session: Session, size: number): Promise<void> {
  const open = ctx.legs.filter((leg) => leg.status === 'open' && leg.kind !== 'trailing');
  const total = open.reduce((sum, leg) => sum + (leg.quantity - leg.filledQty), 0);
  if (open.length === 0 || total <= size + session.market.qtyStep / 2) return;
  await cancelOpenLegs(session, ctx, open.map((leg) => leg.kind));
  const round = Math.max(...ctx.legs.map((leg) => leg.round)) + 1;
  const quantities: number[] = [0, 0, 0];
  const prices: number[] = [0, 0, 0];
  let left = size;
  open.forEach((leg, index) => {
    const slot = Number(leg.kind.slice(2)) - 1;
    const share = index === open.length - 1 ? left : roundDownToStep((size * (leg.quantity - leg.filledQty)) / total, session.market.qtyStep);
    quantities[slot] = roundDownToStep(share, session.market.qtyStep);
    prices[slot] = leg.price;
    left = Number((left - quantities[slot]!).toFixed(8));
  });
  ctx.legs.push(...(await placeTakeProfitLegs(session, ctx, quantities, prices, round)));
}

/**
 * Compares the position on the exchange with what we expect. Books TP/trailing fills and closes done
 * outside the platform, moves the stop to entry after TP1 (advanceStopLoss), resizes the remaining legs,
 * and closes the execution (and, when it was the last, the Order) once the position is flat.
 */
export async function runSync(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<void> {
  const positions = await session.adapter.fetchPositions(session.credentials, [session.symbol]);
  const position = positions.find((p) => p.symbol === session.symbol && p.side === session.side);
  const size = position?.size ?? 0;
  if (position?.markPrice !== undefined) ctx.lastMarkPrice = position.markPrice;
  const eps = session.market.qtyStep / 2;
  const expected = Number((ctx.quantity! - ctx.closedQty).toFixed(8));
  if (size >= expected - eps) {
    await saveProgress(rt, ctx);
    return;
  }
  const fills: LegFill[] = await refreshLegs(session, ctx);
  const unexplained = Number((ctx.quantity! - ctx.closedQty - size).toFixed(8));
  const outside = unexplained > eps ? await bookUnexplained(rt, ctx, session, unexplained) : null;
  if (size <= eps) {
    await cancelOpenLegs(session, ctx);
    const how = outside?.message ?? `${fills.map((fill) => `${legLabel[fill.kind] ?? fill.kind} (${fill.quantity} at ${fill.price})`).join(', ') || 'The exchange'} closed the position`;
    await markClosed(rt, ctx, { exitType: outside?.exitType ?? null, message: `${how}; realized PnL ${ctx.realizedPnl.toFixed(2)} USDT` });
    return;
  }
  // Book the fills and their audits together, so a failure below cannot audit them twice.
  const audits = fills.map((fill) => ({ exitType: null, message: `${legLabel[fill.kind] ?? fill.kind} filled: ${fill.quantity} ${session.symbol} at ${fill.price}` }));
  await markLegsFilled(rt, ctx, outside ? [...audits, outside] : audits);
  const tp1Filled = ctx.legs.some((leg) => leg.kind === 'tp1' && leg.filledQty > 0);
  if (ctx.strategy.advanceStopLoss && tp1Filled && !ctx.stopMovedToEntry) {
    await session.adapter.setStopLoss(session.credentials, { symbol: session.symbol, side: session.side, price: ctx.entryPrice!, positionMode: session.mode });
    ctx.stopMovedToEntry = true;
    ctx.stopLossPrice = ctx.entryPrice;
  }
  await resizeLegs(ctx, session, size);
  await saveProgress(rt, ctx);
}
