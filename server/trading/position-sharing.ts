import { EntryDirection, entryDirectionLabels } from '../../contract/enums';
import type { LeverageHeld } from './settings-cache';

/**
 * When may two executions of one customer share an exchange position (same account, same symbol)?
 * Each execution owns sized legs (its stop, its take-profits, its trailing stop), so two of them on
 * the same side add up and stay apart. A later entry is skipped and audited when they could not:
 * - `nets`: in one-way mode an entry on the other side would net against the open position;
 * - `modes`: the two strategies want different position modes on one symbol;
 * - `trailing`: on Bybit the trailing stop belongs to the whole position, so two executions cannot
 *   each keep their own when either uses one.
 * The SQL function `enqueue_order` (migration alert_intake_functions) finds, per customer, the first
 * live execution the new entry conflicts with and which of these applies.
 */
export type SharingConflict = 'nets' | 'modes' | 'trailing';

/** What the audit's text names of the skipped entry. */
export interface EntryTerms {
  symbol: string;
  side: EntryDirection;
}

const reasons: Record<SharingConflict, (terms: Pick<EntryTerms, 'side'>) => string> = {
  nets: (terms) => `in one-way mode this ${entryDirectionLabels[terms.side]} entry would net against that position`,
  modes: () => 'the two strategies need different position modes on one symbol',
  trailing: () => "Bybit's trailing stop belongs to the whole position and the two could not each keep their own",
};

export function conflictMessage(terms: EntryTerms, otherStrategyId: string, reason: SharingConflict): string {
  return `The customer already holds ${terms.symbol} through strategy ${otherStrategyId}; ${reasons[reason](terms)}, so this entry was skipped`;
}

/** The entry would have changed the leverage under another strategy's open position on the symbol (LIVE-FIDELITY D5). */
export function leverageHeldMessage(symbol: string, held: LeverageHeld, wanted: number): string {
  return `The customer already holds ${symbol} through strategy ${held.strategyId} at leverage ${held.leverage}x; changing it to ${wanted}x would move that position's liquidation price, so this entry was skipped`;
}
