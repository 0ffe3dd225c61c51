import { AmountType, TakeProfitMode } from '../../../contract/enums';
import type { ExecutionContext } from '../context';
import type { TrailingStopRequest } from '../exchanges/types';
import { distance, priceAway, roundToStep, splitTakeProfit } from '../sizing';
import type { PositionTerms, Session } from '../steps/session';

/** TP trigger prices of the strategy for a position entered at `entryPrice` (TP1..TP3 distances). */
export function takeProfitPrices(ctx: ExecutionContext, session: PositionTerms, entryPrice: number): number[] {
  const s = ctx.strategy;
  const targets = [s.tp1TargetLevel, s.tp2TargetLevel ?? s.tp1TargetLevel, s.tp3TargetLevel ?? s.tp2TargetLevel ?? s.tp1TargetLevel];
  return targets.map((target) => priceAway(entryPrice, session.side, distance(entryPrice, s.takeProfitType, target), 'profit', session.market.tickSize));
}

export function stopLossPrice(ctx: ExecutionContext, session: PositionTerms, entryPrice: number): number {
  const s = ctx.strategy;
  return priceAway(entryPrice, session.side, distance(entryPrice, s.stopLossType, s.stopLossAmount), 'loss', session.market.tickSize);
}

/** TP leg sizes of `quantity` (index 0..2 = TP1..TP3): Full mode one leg of 100%, Partial their volumes. */
export function takeProfitSizes(ctx: ExecutionContext, session: PositionTerms, quantity: number): number[] {
  const s = ctx.strategy;
  const mode = s.takeProfitMode === TakeProfitMode.Partial ? 'partial' : 'full';
  return splitTakeProfit(quantity, mode, [s.tp1CloseVolume, s.tp2CloseVolume ?? 0], session.market);
}

/** The strategy's trailing stop terms (activation distance + callback), or null when it has none. */
export function trailingTerms(ctx: ExecutionContext, session: Session, entryPrice: number): { activationPrice: number; callback: TrailingStopRequest['callback'] } | null {
  const s = ctx.strategy;
  if (!s.trailingStop || s.activationType === null || s.activationAmount === null || s.closeType === null || s.closeAmount === null) return null;
  return {
    activationPrice: priceAway(entryPrice, session.side, distance(entryPrice, s.activationType, s.activationAmount), 'profit', session.market.tickSize),
    callback: s.closeType === AmountType.Percent ? { type: 'percent', value: s.closeAmount } : { type: 'price', value: s.closeAmount },
  };
}

/** Whether the market price has reached `level` on the loss side (a stop) or the profit side (a TP) of the position. */
export function passed(session: Session, level: number, price: number, direction: 'profit' | 'loss'): boolean {
  const upward = (session.side === 'long') === (direction === 'profit');
  return upward ? price >= level : price <= level;
}

/** `price` on the tick grid, rounded towards the position's loss side (a stop never ends up beyond it). */
export function tickOnLossSide(session: PositionTerms, price: number): number {
  const tick = session.market.tickSize;
  const units = price / tick;
  const rounded = session.side === 'long' ? Math.floor(units + 1e-9) : Math.ceil(units - 1e-9);
  return roundToStep(rounded * tick, tick);
}
