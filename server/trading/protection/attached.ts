import type { ExecutionContext } from '../context';
import type { AttachedLeg } from '../exchanges/types';
import type { ExecutionLeg } from '../legs';
import type { Session } from '../steps/session';

/**
 * Finds the TP/SL the exchange made from this execution's entry (they carry no client id) among the
 * position's attached orders (open ones; with `includeDone` the recently triggered ones too): same
 * kind, same trigger, sized to this fill, and not already taken by another execution sharing the
 * position (`takenIds`). Answers the legs not found.
 */
export async function resolveAttachedLegs(ctx: ExecutionContext, session: Session, takenIds: ReadonlySet<string>, includeDone = false): Promise<ExecutionLeg[]> {
  const unresolved = ctx.legs.filter((leg) => leg.attached && leg.status === 'open' && !leg.exchangeOrderId);
  if (unresolved.length === 0) return [];
  const missing = await matchAttached(ctx, session, unresolved, takenIds, includeDone, false);
  // The stream shows what it has delivered: one it does not show yet is looked for over REST before it counts as gone.
  if (missing.length === 0 || includeDone || !session.adapter.readsFromStream(session.credentials)) return missing;
  return matchAttached(ctx, session, missing, takenIds, includeDone, true);
}

/** Gives each leg the exchange's id of the attached order it became; answers the legs with no match. */
async function matchAttached(ctx: ExecutionContext, session: Session, legs: ExecutionLeg[], takenIds: ReadonlySet<string>, includeDone: boolean, overRest: boolean): Promise<ExecutionLeg[]> {
  const found = await session.adapter.findAttachedLegs(session.credentials, { symbol: session.symbol, side: session.side, positionMode: session.mode }, includeDone, overRest);
  const free = found.filter((candidate) => !takenIds.has(candidate.exchangeOrderId));
  const halfTick = session.market.tickSize / 2;
  const missing: ExecutionLeg[] = [];
  for (const leg of legs) {
    const kind: AttachedLeg['kind'] = leg.kind === 'sl' ? 'stopLoss' : 'takeProfit';
    const index = free.findIndex(
      (candidate) =>
        candidate.kind === kind &&
        (leg.price === 0 || Math.abs(candidate.triggerPrice - leg.price) <= halfTick) &&
        (!candidate.sized || Math.abs(candidate.quantity - ctx.quantity!) <= session.market.qtyStep / 2),
    );
    const match = index >= 0 ? free.splice(index, 1)[0] : undefined;
    if (!match) {
      missing.push(leg);
      continue;
    }
    leg.exchangeOrderId = match.exchangeOrderId;
    leg.price = match.triggerPrice;
    leg.quantity = match.sized ? match.quantity : 0;
    if (match.planType) leg.planType = match.planType;
  }
  return missing;
}
