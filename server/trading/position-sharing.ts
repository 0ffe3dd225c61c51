import { sql, type SQL } from 'drizzle-orm';
import { EntryDirection, Exchange, PositionMode, entryDirectionLabels } from '../../contract/enums';

/**
 * When may two executions of one customer share an exchange position (same account, same symbol)?
 * Each execution owns sized legs (its stop, its take-profits, its trailing stop), so two of them on
 * the same side add up and stay apart. A later entry is skipped and audited when they could not:
 * - `nets`: in one-way mode an entry on the other side would net against the open position;
 * - `modes`: the two strategies want different position modes on one symbol;
 * - `trailing`: on Bybit the trailing stop belongs to the whole position, so two executions cannot
 *   each keep their own when either uses one.
 */
export type SharingConflict = 'nets' | 'modes' | 'trailing';

export interface EntryTerms {
  symbol: string;
  positionMode: number;
  trailingStop: boolean;
  side: EntryDirection;
}

/** A lateral subquery over customer `c`: the first live execution the new entry conflicts with (strategy_id, reason). */
export function conflictingExecution(terms: EntryTerms): SQL {
  return sql`left join lateral (
      select o2.strategy_id,
        case when s2.position_mode <> ${terms.positionMode} then 'modes'
             when s2.position_mode = ${PositionMode.OneWay} and o2.side <> ${terms.side} then 'nets'
             else 'trailing' end as reason
      from executions e2
      join orders o2 on o2.id = e2.order_id
      join strategies s2 on s2.id = o2.strategy_id
      where e2.customer_id = c.id and e2.state in ('pending', 'open') and s2.symbol = ${terms.symbol}
        and (s2.position_mode <> ${terms.positionMode}
          or (s2.position_mode = ${PositionMode.OneWay} and o2.side <> ${terms.side})
          or (c.platform_type = ${Exchange.Bybit} and o2.side = ${terms.side} and (${terms.trailingStop} or s2.trailing_stop)))
      order by e2.id limit 1) conflict on true`;
}

const reasons: Record<SharingConflict, (terms: EntryTerms) => string> = {
  nets: (terms) => `in one-way mode this ${entryDirectionLabels[terms.side]} entry would net against that position`,
  modes: () => 'the two strategies need different position modes on one symbol',
  trailing: () => "Bybit's trailing stop belongs to the whole position and the two could not each keep their own",
};

export function conflictMessage(terms: EntryTerms, otherStrategyId: string, reason: SharingConflict): string {
  return `The customer already holds ${terms.symbol} through strategy ${otherStrategyId}; ${reasons[reason](terms)}, so this entry was skipped`;
}
