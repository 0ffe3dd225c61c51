import type { Deps } from '../deps';
import { openManualOrder } from '../trading/intake';
import { demoStrategies } from './strategies';

/** The demo's open positions: each manual strategy's Open Long / Open Short, as staff press them. */
export const LIVE_STRATEGIES = demoStrategies.filter((strategy) => strategy.via === 'manual');

/**
 * Opens the demo's live Orders through the same intake as the Open Long / Open Short buttons, on the
 * running app: its engine places the entries on the sandbox exchange, attaches their stops and
 * take-profit legs, and follows them (the sandbox's prices move, so does their PnL). Called at every
 * start of `npm run demo`: the sandbox keeps no state across restarts, so the positions of an earlier
 * run are gone from it (the engine's sync books them as closed outside the platform). Answers the
 * Orders' ids.
 */
export async function openLivePositions(deps: Deps): Promise<number[]> {
  const ids: number[] = [];
  for (const strategy of LIVE_STRATEGIES) {
    const order = await openManualOrder(deps, { strategyId: strategy.id, side: strategy.direction });
    ids.push(order.orderId);
  }
  return ids;
}
