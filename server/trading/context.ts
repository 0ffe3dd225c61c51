import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import type { ExecutionLeg } from './legs';

/** Everything one execution needs, loaded in one query per claimed batch. */
export interface ExecutionContext {
  id: number;
  orderId: number;
  customerId: number;
  accountId: number;
  clientOrderId: string;
  state: 'pending' | 'open';
  attempts: number;
  deadlineAt: Date;
  /** How long after the alert the entry may still be placed (deadline minus the Order's creation). */
  entryWindowMs: number;
  closeRequestedAt: Date | null;
  exitType: number | null;
  protectedAt: Date | null;
  quantity: number | null;
  entryPrice: number | null;
  closedQty: number;
  realizedPnl: number;
  legs: ExecutionLeg[];
  stopLossPrice: number | null;
  stopMovedToEntry: boolean;
  side: number;
  entryType: number;
  platformType: number;
  credentials: { apiKeyEnc: string | null; apiSecretEnc: string | null; passphraseEnc: string | null };
  investType: number | null;
  investAmount: number | null;
  /** Price the alert carried, if any. */
  referencePrice: number | null;
  lastMarkPrice: number | null;
  /** Another live execution of this customer holds (or is entering) the same exchange position. */
  sharedSlot: boolean;
  strategy: StrategyTerms;
}

export interface StrategyTerms {
  id: string;
  symbol: string;
  leverage: number;
  positionMode: number;
  takeProfitType: number;
  takeProfitMode: number;
  tp1TargetLevel: number;
  tp1CloseVolume: number;
  tp2TargetLevel: number | null;
  tp2CloseVolume: number | null;
  tp3TargetLevel: number | null;
  stopLossType: number;
  stopLossAmount: number;
  advanceStopLoss: boolean;
  trailingStop: boolean;
  activationType: number | null;
  activationAmount: number | null;
  closeType: number | null;
  closeAmount: number | null;
}

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

export type Row = Record<string, unknown>;

function toContext(row: Row): ExecutionContext {
  return {
    id: Number(row.id),
    orderId: Number(row.order_id),
    customerId: Number(row.customer_id),
    accountId: Number(row.account_id),
    clientOrderId: String(row.client_order_id),
    state: row.state as 'pending' | 'open',
    attempts: Number(row.attempts),
    deadlineAt: new Date(row.deadline_at as string),
    entryWindowMs: Math.round(Number(row.entry_window_s) * 1000),
    closeRequestedAt: row.close_requested_at ? new Date(row.close_requested_at as string) : null,
    exitType: num(row.exit_type),
    protectedAt: row.protected_at ? new Date(row.protected_at as string) : null,
    quantity: num(row.quantity),
    entryPrice: num(row.entry_price),
    closedQty: Number(row.closed_qty),
    realizedPnl: Number(row.realized_pnl),
    legs: (row.legs as ExecutionLeg[] | null) ?? [],
    stopLossPrice: num(row.stop_loss_price),
    stopMovedToEntry: Boolean(row.stop_moved_to_entry),
    side: Number(row.side),
    entryType: Number(row.entry_type),
    platformType: Number(row.platform_type),
    credentials: {
      apiKeyEnc: (row.api_key_enc as string | null) ?? null,
      apiSecretEnc: (row.api_secret_enc as string | null) ?? null,
      passphraseEnc: (row.passphrase_enc as string | null) ?? null,
    },
    investType: num(row.invest_type),
    investAmount: num(row.invest_amount),
    referencePrice: num(row.reference_price),
    lastMarkPrice: num(row.last_mark_price),
    sharedSlot: Boolean(row.shared_slot),
    strategy: {
      id: String(row.strategy_id),
      symbol: String(row.symbol),
      leverage: Number(row.leverage),
      positionMode: Number(row.position_mode),
      takeProfitType: Number(row.take_profit_type),
      takeProfitMode: Number(row.take_profit_mode),
      tp1TargetLevel: Number(row.tp1_target_level),
      tp1CloseVolume: Number(row.tp1_close_volume),
      tp2TargetLevel: num(row.tp2_target_level),
      tp2CloseVolume: num(row.tp2_close_volume),
      tp3TargetLevel: num(row.tp3_target_level),
      stopLossType: Number(row.stop_loss_type),
      stopLossAmount: Number(row.stop_loss_amount),
      advanceStopLoss: Boolean(row.advance_stop_loss),
      trailingStop: Boolean(row.trailing_stop),
      activationType: num(row.activation_type),
      activationAmount: num(row.activation_amount),
      closeType: num(row.close_type),
      closeAmount: num(row.close_amount),
    },
  };
}

/**
 * The context's columns over execution rows aliased `e` with their order, strategy, customer and group
 * terms: rows of the table, or rows an INSERT ... RETURNING just made (a CTE of the same statement).
 */
export function contextsOver(source: SQL): SQL {
  return sql`
    select e.id, e.order_id, e.customer_id, e.client_order_id, e.state, e.attempts, e.deadline_at, e.close_requested_at,
      extract(epoch from e.deadline_at - o.datetime_inserted) as entry_window_s,
      e.exit_type, e.protected_at, e.quantity, e.entry_price, e.closed_qty, e.realized_pnl, e.legs, e.stop_loss_price,
      e.stop_moved_to_entry, e.last_mark_price, o.reference_price, o.side, o.entry_type, o.strategy_id,
      c.account_id, c.platform_type, c.api_key_enc, c.api_secret_enc, c.passphrase_enc,
      coalesce(g.invest_type, gi.invest_type) as invest_type, coalesce(g.invest_amount, gi.invest_amount) as invest_amount,
      s.symbol, s.leverage, s.position_mode, s.take_profit_type, s.take_profit_mode, s.tp1_target_level, s.tp1_close_volume,
      s.tp2_target_level, s.tp2_close_volume, s.tp3_target_level, s.stop_loss_type, s.stop_loss_amount,
      s.advance_stop_loss, s.trailing_stop, s.activation_type, s.activation_amount, s.close_type, s.close_amount,
      exists (select 1 from executions e2 join orders o2 on o2.id = e2.order_id join strategies s2 on s2.id = o2.strategy_id
              where e2.customer_id = e.customer_id and e2.id <> e.id and e2.state in ('pending', 'open')
                and s2.symbol = s.symbol and o2.side = o.side) as shared_slot
    from ${source} e
    join orders o on o.id = e.order_id
    join strategies s on s.id = o.strategy_id
    join customers c on c.id = e.customer_id
    left join strategy_groups g on g.strategy_id = s.id and g."group" = c."group"
    left join strategy_groups gi on gi.strategy_id = s.id and gi."group" = 2`;
}

/** Execution contexts from rows selected by `contextsOver`. */
export const contextsOf = (rows: Row[]): ExecutionContext[] => rows.map(toContext);

/** Loads the claimed executions of `worker` with their order, strategy, customer and group terms. */
export async function loadContexts(db: DbOrTx, worker: string, ids: number[]): Promise<ExecutionContext[]> {
  if (ids.length === 0) return [];
  const result = await db.execute<Row>(sql`${contextsOver(sql`executions`)} where e.id in ${ids} and e.claimed_by = ${worker} order by e.id`);
  return contextsOf(result.rows);
}
