import { sql } from 'drizzle-orm';
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

/** Execution contexts from the rows the SQL function `execution_contexts` answers (migration alert_in_one_statement). */
export const contextsOf = (rows: Row[]): ExecutionContext[] => rows.map(toContext);

/** Loads the claimed executions of `worker` with their order, strategy, customer and group terms, by id. */
export async function loadContexts(db: DbOrTx, worker: string, ids: number[]): Promise<ExecutionContext[]> {
  if (ids.length === 0) return [];
  const result = await db.execute<{ contexts: Row[] }>(sql`select execution_contexts(${`{${ids.map(Number).join(',')}}`}::int[]) as contexts`);
  return contextsOf(result.rows[0]!.contexts.filter((row) => row.claimed_by === worker));
}
