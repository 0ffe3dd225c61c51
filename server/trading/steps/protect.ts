import { AmountType, TakeProfitMode } from '../../../contract/enums';
import type { ExecutionContext } from '../context';
import { markProtected } from '../execution-state/position';
import { executionClientOrderId } from '../ids';
import type { ExecutionLeg } from '../legs';
import type { TradingRuntime } from '../runtime';
import { distance, priceAway, splitTakeProfit } from '../sizing';
import { placeOnce, type Session } from './session';

/** TP trigger prices of the strategy for a position entered at `entryPrice` (TP1..TP3 distances). */
export function takeProfitPrices(ctx: ExecutionContext, session: Session, entryPrice: number): number[] {
  const s = ctx.strategy;
  const targets = [s.tp1TargetLevel, s.tp2TargetLevel ?? s.tp1TargetLevel, s.tp3TargetLevel ?? s.tp2TargetLevel ?? s.tp1TargetLevel];
  return targets.map((target) => priceAway(entryPrice, session.side, distance(entryPrice, s.takeProfitType, target), 'profit', session.market.tickSize));
}

export function stopLossPrice(ctx: ExecutionContext, session: Session, entryPrice: number): number {
  const s = ctx.strategy;
  return priceAway(entryPrice, session.side, distance(entryPrice, s.stopLossType, s.stopLossAmount), 'loss', session.market.tickSize);
}

/** Places the TP legs of `quantities` (index 0..2 = TP1..TP3) with the given client id round. */
export async function placeTakeProfitLegs(session: Session, ctx: ExecutionContext, quantities: number[], prices: number[], round: number): Promise<ExecutionLeg[]> {
  const kinds = ['tp1', 'tp2', 'tp3'] as const;
  const legs: ExecutionLeg[] = [];
  for (let i = 0; i < quantities.length; i += 1) {
    const quantity = quantities[i]!;
    if (quantity <= 0) continue;
    const kind = kinds[i]!;
    const clientOrderId = executionClientOrderId(ctx.orderId, ctx.customerId, kind, round);
    await placeOnce(session, clientOrderId, () =>
      session.adapter.placeTakeProfit(session.credentials, {
        symbol: session.symbol,
        side: session.side,
        quantity,
        clientOrderId,
        positionMode: session.mode,
        triggerPrice: prices[i]!,
      }),
    );
    legs.push({ kind, clientOrderId, quantity, price: prices[i]!, filledQty: 0, avgPrice: null, status: 'open', round });
  }
  return legs;
}

/**
 * After the fill: TP legs (Full: TP1 closes 100%; Partial: TP1/TP2/TP3 of their volumes), the stop loss
 * on the position, and the trailing stop (activation distance + callback). Levels are distances from
 * the entry fill price. Every leg has a deterministic client id, so a retry re-places nothing.
 */
export async function runProtection(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<void> {
  const entryPrice = ctx.entryPrice!;
  const quantity = ctx.quantity!;
  const s = ctx.strategy;
  const mode = s.takeProfitMode === TakeProfitMode.Partial ? 'partial' : 'full';
  const quantities = splitTakeProfit(quantity, mode, [s.tp1CloseVolume, s.tp2CloseVolume ?? 0], session.market);
  const legs = await placeTakeProfitLegs(session, ctx, quantities, takeProfitPrices(ctx, session, entryPrice), 0);

  const stopPrice = stopLossPrice(ctx, session, entryPrice);
  await session.adapter.setStopLoss(session.credentials, { symbol: session.symbol, side: session.side, price: stopPrice, positionMode: session.mode });

  if (s.trailingStop && s.activationType !== null && s.activationAmount !== null && s.closeType !== null && s.closeAmount !== null) {
    const clientOrderId = executionClientOrderId(ctx.orderId, ctx.customerId, 'trailing');
    const activationPrice = priceAway(entryPrice, session.side, distance(entryPrice, s.activationType, s.activationAmount), 'profit', session.market.tickSize);
    await placeOnce(session, clientOrderId, () =>
      session.adapter.placeTrailingStop(session.credentials, {
        symbol: session.symbol,
        side: session.side,
        quantity,
        clientOrderId,
        positionMode: session.mode,
        activationPrice,
        callback: s.closeType === AmountType.Percent ? { type: 'percent', value: s.closeAmount! } : { type: 'price', value: s.closeAmount! },
      }),
    );
    legs.push({ kind: 'trailing', clientOrderId, quantity, price: activationPrice, filledQty: 0, avgPrice: null, status: 'open', round: 0 });
  }

  await markProtected(rt, ctx, { legs, stopLossPrice: stopPrice });
}
