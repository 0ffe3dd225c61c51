import { StrategyStatus } from '../../contract/enums';
import type { Db } from '../db/client';
import type { Deps } from '../deps';
import { parseAlert } from '../modules/webhooks/parse';
import { receiveAlert } from '../trading/intake';
import { loadContexts, type ExecutionContext } from '../trading/context';
import type { ExchangeId } from '../trading/exchanges/types';
import { claimExecutions, type JobKind } from '../trading/execution-state/queue';
import type { StateWriter } from '../trading/execution-state/writer';
import type { PositionTerms } from '../trading/steps/session';
import type { DemoTrade } from './history-plan';

/** The demo seeding holds the claims of the executions it replays, as a dispatcher would. */
const DEMO_WORKER = 'demo-seed';
const LEASE_MS = 10 * 60 * 1000;
/** An address TradingView sends its alerts from. */
const TRADINGVIEW_IP = '52.89.214.238';

/** A transition's writer at one backdated instant. */
export type Writer = StateWriter & { db: Db };
export type WriterAt = (msAfterEntry: number) => Writer;

export const writerFor = (deps: Deps, trade: DemoTrade): WriterAt => (ms) => ({ db: deps.db, worker: DEMO_WORKER, at: new Date(trade.at.getTime() + ms) });

/** An execution whose entry filled: its context and the market terms its levels are computed with. */
export interface Position {
  ctx: ExecutionContext;
  terms: PositionTerms;
  exchange: ExchangeId;
}

/**
 * Executions of one Order written side by side, as several dispatcher workers would. Every instant is
 * drawn beforehand, and the executions of one phase end at the same instant (entries answered, last
 * exits), so the data set does not depend on which lane writes first; only the ids of rows written at
 * one instant may come in another order.
 */
const PARALLEL_WRITES = 4;

export async function inParallel<T, R>(items: T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_WRITES, items.length) }, lane));
  return results;
}

/** A TradingView alert through the webhook's own service, stamped at the clock's (backdated) instant. */
export async function sendAlert(deps: Deps, trade: DemoTrade, alert: Record<string, unknown>): Promise<void> {
  const body = JSON.stringify(alert);
  const parsed = parseAlert(body, trade.strategy.direction);
  if (!parsed.ok) throw new Error(`The demo alert was refused: ${parsed.reason}`);
  const strategy = { id: trade.strategy.id, symbol: trade.strategy.symbol, entryDirection: trade.strategy.direction, status: StrategyStatus.Active, maxAlertAgeS: null };
  await receiveAlert(deps, { strategy, alert: parsed.alert, body, sourceIp: TRADINGVIEW_IP, backdated: true });
}

/** Claims every due execution of `kind`, as a dispatcher would, and loads their contexts (by id). */
export async function claim(deps: Deps, kind: JobKind): Promise<ExecutionContext[]> {
  const ids = await claimExecutions(deps.db, { worker: DEMO_WORKER, limit: 10_000, leaseMs: LEASE_MS, kind });
  return (await loadContexts(deps.db, DEMO_WORKER, ids)).sort((a, b) => a.id - b.id);
}
