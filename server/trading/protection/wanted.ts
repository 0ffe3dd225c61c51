import type { ExecutionContext } from '../context';
import { currentLeg, isTakeProfit, takeProfitKinds, type ProtectionKind } from '../legs';
import { roundDownToStep } from '../sizing';
import type { Session } from '../steps/session';
import { stopLossPrice, takeProfitPrices, takeProfitSizes, tickOnLossSide, trailingTerms } from './levels';

/** A protective order as it should be on the exchange now. */
export interface WantedLeg {
  kind: ProtectionKind;
  quantity: number;
  price: number;
}

const round8 = (value: number) => Number(value.toFixed(8));

/** What is left of this execution's position. */
export const remainingOf = (ctx: ExecutionContext) => round8(ctx.quantity! - ctx.closedQty);

/** Bybit's trailing stop belongs to the whole position (trading-stop): it is never sized or resized. */
export const trailingCoversPosition = (session: Session) => session.exchange === 'bybit';

/**
 * The take-profit legs wanted now. Until the position is first protected: the strategy's split of the
 * filled quantity, less the legs already filled (taken at market when the market had passed them).
 * Afterwards: the open ones. Either way shrunk in proportion when together they would close more than
 * is left (a partial fill, a manual close); filled legs are done and never placed again.
 */
function wantedTakeProfits(ctx: ExecutionContext, session: Session, remaining: number): WantedLeg[] {
  const step = session.market.qtyStep;
  const filled = new Set(ctx.legs.filter((leg) => isTakeProfit(leg.kind) && leg.status === 'filled').map((leg) => leg.kind));
  let candidates: WantedLeg[];
  if (ctx.protectedAt === null) {
    const sizes = takeProfitSizes(ctx, session, ctx.quantity!);
    const prices = takeProfitPrices(ctx, session, ctx.entryPrice!);
    candidates = takeProfitKinds.flatMap((kind, i) => (sizes[i]! > 0 && !filled.has(kind) ? [{ kind, quantity: sizes[i]!, price: prices[i]! }] : []));
  } else {
    candidates = takeProfitKinds.flatMap((kind) => {
      const leg = currentLeg(ctx.legs, kind);
      return leg ? [{ kind, quantity: round8(leg.quantity - leg.filledQty), price: leg.target ?? leg.price }] : [];
    });
  }
  const total = candidates.reduce((sum, leg) => sum + leg.quantity, 0);
  if (total <= remaining + step / 2) return candidates;
  let rest = remaining;
  return candidates.flatMap((leg, index) => {
    const share = index === candidates.length - 1 ? rest : roundDownToStep((remaining * leg.quantity) / total, step);
    const quantity = roundDownToStep(Math.min(share, rest), step);
    rest = round8(rest - quantity);
    return quantity >= session.market.minQty ? [{ ...leg, quantity }] : [];
  });
}

/**
 * Where this execution's stop belongs: at the strategy's distance from the fill, or at the entry price
 * (rounded to the tick on the loss side) once TP1 filled when advanceStopLoss is on.
 */
export function stopTarget(ctx: ExecutionContext, session: Session): { price: number; atEntry: boolean } {
  const entry = ctx.entryPrice!;
  const atEntry = ctx.strategy.advanceStopLoss && ctx.legs.some((leg) => leg.kind === 'tp1' && leg.filledQty > 0);
  return atEntry ? { price: tickOnLossSide(session, entry), atEntry } : { price: stopLossPrice(ctx, session, entry), atEntry };
}

/**
 * This execution's protection as it should stand: a stop sized to what is left (at the entry price once
 * TP1 filled, when advanceStopLoss is on), the take-profit legs, and the trailing stop. The stop comes
 * first: it is placed before anything else.
 */
export function wantedProtection(ctx: ExecutionContext, session: Session): WantedLeg[] {
  const remaining = remainingOf(ctx);
  if (remaining < session.market.qtyStep / 2) return [];
  const entry = ctx.entryPrice!;
  const wanted: WantedLeg[] = [{ kind: 'sl', quantity: remaining, price: stopTarget(ctx, session).price }, ...wantedTakeProfits(ctx, session, remaining)];
  const trailing = trailingTerms(ctx, session, entry);
  if (trailing) {
    const placedTrailing = currentLeg(ctx.legs, 'trailing');
    const quantity = trailingCoversPosition(session) && placedTrailing ? placedTrailing.quantity : remaining;
    const done = ctx.legs.some((leg) => leg.kind === 'trailing' && leg.status === 'filled');
    if (!done) wanted.push({ kind: 'trailing', quantity, price: placedTrailing?.target ?? placedTrailing?.price ?? trailing.activationPrice });
  }
  return wanted;
}
