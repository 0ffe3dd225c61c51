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
  /** The customer's own guards (issue 29), each null when not set. */
  guards: CustomerGuardTerms;
  /** When this process sent the entry and the exchange acknowledged it (execution quality); written with the entry. */
  entryTimes?: { sentAt: Date; ackedAt: Date } | undefined;
}

export interface CustomerGuardTerms {
  maxNotionalUsdt: number | null;
  maxLeverage: number | null;
  maxOpenPositions: number | null;
  minFreeBalanceUsdt: number | null;
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
  /** Guard: the most the expected fill may be from the alert's price, in basis points; null: no limit. */
  maxSlippageBps: number | null;
}

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/**
 * What the SQL function `execution_contexts` answers (server/db/functions/alert-intake.sql): its column names, then
 * each execution's values in that order. Statements that claimed nothing answer an empty array instead.
 */
export interface ContextTable {
  columns: string[];
  rows: unknown[][];
}

/** The columns an execution's context is read from. */
const CONTEXT_COLUMNS = [
  'id', 'order_id', 'customer_id', 'client_order_id', 'state', 'attempts', 'deadline_at', 'close_requested_at',
  'claimed_by', 'entry_window_s', 'exit_type', 'protected_at', 'quantity', 'entry_price', 'closed_qty', 'realized_pnl',
  'legs', 'stop_loss_price', 'stop_moved_to_entry', 'last_mark_price', 'reference_price', 'side', 'entry_type', 'strategy_id',
  'account_id', 'platform_type', 'api_key_enc', 'api_secret_enc', 'passphrase_enc', 'invest_type', 'invest_amount', 'symbol',
  'leverage', 'position_mode', 'take_profit_type', 'take_profit_mode', 'tp1_target_level', 'tp1_close_volume', 'tp2_target_level', 'tp2_close_volume',
  'tp3_target_level', 'stop_loss_type', 'stop_loss_amount', 'advance_stop_loss', 'trailing_stop', 'activation_type', 'activation_amount', 'close_type',
  'close_amount', 'shared_slot', 'max_slippage_bps', 'guard_max_notional_usdt', 'guard_max_leverage', 'guard_max_open_positions',
  'guard_min_free_balance_usdt',
] as const;

/** Where each column is in a row of the table. */
type ColumnAt = Record<(typeof CONTEXT_COLUMNS)[number], number>;

function columnsOf(table: ContextTable): ColumnAt {
  const at = {} as ColumnAt;
  for (const name of CONTEXT_COLUMNS) {
    const index = table.columns.indexOf(name);
    if (index < 0) throw new Error(`execution_contexts answered no column '${name}'`);
    at[name] = index;
  }
  return at;
}

function toContext(v: unknown[], at: ColumnAt): ExecutionContext {
  return {
    id: Number(v[at.id]),
    orderId: Number(v[at.order_id]),
    customerId: Number(v[at.customer_id]),
    accountId: Number(v[at.account_id]),
    clientOrderId: String(v[at.client_order_id]),
    state: v[at.state] as 'pending' | 'open',
    attempts: Number(v[at.attempts]),
    deadlineAt: new Date(v[at.deadline_at] as string),
    entryWindowMs: Math.round(Number(v[at.entry_window_s]) * 1000),
    closeRequestedAt: v[at.close_requested_at] ? new Date(v[at.close_requested_at] as string) : null,
    exitType: num(v[at.exit_type]),
    protectedAt: v[at.protected_at] ? new Date(v[at.protected_at] as string) : null,
    quantity: num(v[at.quantity]),
    entryPrice: num(v[at.entry_price]),
    closedQty: Number(v[at.closed_qty]),
    realizedPnl: Number(v[at.realized_pnl]),
    legs: (v[at.legs] as ExecutionLeg[] | null) ?? [],
    stopLossPrice: num(v[at.stop_loss_price]),
    stopMovedToEntry: Boolean(v[at.stop_moved_to_entry]),
    side: Number(v[at.side]),
    entryType: Number(v[at.entry_type]),
    platformType: Number(v[at.platform_type]),
    credentials: {
      apiKeyEnc: (v[at.api_key_enc] as string | null) ?? null,
      apiSecretEnc: (v[at.api_secret_enc] as string | null) ?? null,
      passphraseEnc: (v[at.passphrase_enc] as string | null) ?? null,
    },
    investType: num(v[at.invest_type]),
    investAmount: num(v[at.invest_amount]),
    referencePrice: num(v[at.reference_price]),
    lastMarkPrice: num(v[at.last_mark_price]),
    sharedSlot: Boolean(v[at.shared_slot]),
    strategy: {
      id: String(v[at.strategy_id]),
      symbol: String(v[at.symbol]),
      leverage: Number(v[at.leverage]),
      positionMode: Number(v[at.position_mode]),
      takeProfitType: Number(v[at.take_profit_type]),
      takeProfitMode: Number(v[at.take_profit_mode]),
      tp1TargetLevel: Number(v[at.tp1_target_level]),
      tp1CloseVolume: Number(v[at.tp1_close_volume]),
      tp2TargetLevel: num(v[at.tp2_target_level]),
      tp2CloseVolume: num(v[at.tp2_close_volume]),
      tp3TargetLevel: num(v[at.tp3_target_level]),
      stopLossType: Number(v[at.stop_loss_type]),
      stopLossAmount: Number(v[at.stop_loss_amount]),
      advanceStopLoss: Boolean(v[at.advance_stop_loss]),
      trailingStop: Boolean(v[at.trailing_stop]),
      activationType: num(v[at.activation_type]),
      activationAmount: num(v[at.activation_amount]),
      closeType: num(v[at.close_type]),
      closeAmount: num(v[at.close_amount]),
      maxSlippageBps: num(v[at.max_slippage_bps]),
    },
    guards: {
      maxNotionalUsdt: num(v[at.guard_max_notional_usdt]),
      maxLeverage: num(v[at.guard_max_leverage]),
      maxOpenPositions: num(v[at.guard_max_open_positions]),
      minFreeBalanceUsdt: num(v[at.guard_min_free_balance_usdt]),
    },
  };
}

/** Execution contexts from what the SQL function `execution_contexts` answers; `keep` picks rows by their claimant. */
export function contextsOf(table: ContextTable | [], keep?: (claimedBy: unknown) => boolean): ExecutionContext[] {
  if (Array.isArray(table)) return [];
  const at = columnsOf(table);
  const rows = keep ? table.rows.filter((v) => keep(v[at.claimed_by])) : table.rows;
  return rows.map((v) => toContext(v, at));
}

/** Loads the claimed executions of `worker` with their order, strategy, customer and group terms, by id. */
export async function loadContexts(db: DbOrTx, worker: string, ids: number[]): Promise<ExecutionContext[]> {
  if (ids.length === 0) return [];
  const result = await db.execute<{ contexts: ContextTable }>(sql`select execution_contexts(${`{${ids.map(Number).join(',')}}`}::int[]) as contexts`);
  return contextsOf(result.rows[0]!.contexts, (claimedBy) => claimedBy === worker);
}
